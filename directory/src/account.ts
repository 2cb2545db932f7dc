/**
 * Password writes on a person's entry (000 §7 change_password, set_initial_password, reset_password,
 * clearUsersPasswordAllowChangeTime). The user's own change binds as the user, so slapd's ppolicy enforces
 * history, minimum age and quality; administrator writes (emailed links) go through the admin DN.
 */
import {
  Attribute,
  Change,
  ConstraintViolationError,
  Control,
  InsufficientAccessError,
  InvalidCredentialsError,
} from 'ldapts';
import { newClient, withAdmin } from './client';
import { type DirectoryConfig, userDn } from './config';
import { argon2Hash, argon2ParamsOf, historyValue, verifyPasswordHash } from './password';
import { upgradePasswordHash } from './password-upgrade';
import { formatGeneralizedTime } from './time';

/** OpenLDAP's relax control: lets the admin write the NO-USER-MODIFICATION pwdChangedTime. */
const RELAX = '1.3.6.1.4.1.4203.666.5.12';

const replace = (type: string, values: string[]) =>
  new Change({ operation: 'replace', modification: new Attribute({ type, values }) });

export type ChangeFailure = 'invalidCredentials' | 'tooYoung' | 'inHistory' | 'quality' | 'notAllowed';
export type ChangeOutcome = { ok: true } | { ok: false; reason: ChangeFailure };

/** Maps slapd's ppolicy answers (constraint violation texts) to a reason; other errors are rethrown. */
function changeFailure(err: unknown): ChangeFailure {
  if (err instanceof InvalidCredentialsError) return 'invalidCredentials';
  if (err instanceof InsufficientAccessError) return 'notAllowed';
  if (err instanceof ConstraintViolationError) {
    if (/too young/i.test(err.message)) return 'tooYoung';
    if (/history/i.test(err.message)) return 'inHistory';
    return 'quality';
  }
  throw err;
}

/**
 * The user's own password change: binds as `dn` with `current` and replaces userPassword with `next` in
 * clear text (slapd hashes it: ppolicy_hash_cleartext), so ppolicy checks minimum age, history and quality.
 * slapd's module hashes with argon2i; the value is then swapped for the portal's argon2id
 * (password-upgrade.ts), which a failure of leaves for the next sign-in. @throws on an unreachable directory.
 */
export async function changeOwnPassword(
  cfg: DirectoryConfig,
  dn: string,
  current: string,
  next: string,
): Promise<ChangeOutcome> {
  const client = newClient(cfg);
  try {
    await client.bind(dn, current);
    await client.modify(dn, replace('userPassword', [next]));
  } catch (err) {
    return { ok: false, reason: changeFailure(err) };
  } finally {
    await client.unbind().catch(() => undefined);
  }
  await upgradePasswordHash(cfg, dn, next).catch(() => undefined);
  return { ok: true };
}

/**
 * An administrator's write of a person's password. slapd records the old one in pwdHistory, clears the
 * lockout and, with pwdMustChange, sets pwdReset; `mustChange: false` removes pwdReset again (the person
 * chose this password through an emailed link).
 */
export async function adminSetPassword(
  cfg: DirectoryConfig,
  username: string,
  password: string,
  opts: { mustChange: boolean },
): Promise<void> {
  const dn = userDn(cfg, username);
  await withAdmin(cfg, async (c) => {
    await c.modify(dn, replace('userPassword', [await argon2Hash(password, argon2ParamsOf(cfg))]));
    if (!opts.mustChange) await c.modify(dn, replace('pwdReset', []));
  });
}

/** Replaces a person's password as the administrator; the person must change it at the next sign-in. */
export async function setPassword(cfg: DirectoryConfig, username: string, password: string): Promise<void> {
  await adminSetPassword(cfg, username, password, { mustChange: true });
}

/**
 * Moves pwdChangedTime (relax control). Used to clear the minimum-age restriction and, in the demo seed,
 * to age a password; grace sign-ins used so far are forgotten.
 */
export async function setPasswordChangedTime(cfg: DirectoryConfig, username: string, when: Date): Promise<void> {
  await withAdmin(cfg, (c) =>
    c.modify(
      userDn(cfg, username),
      [replace('pwdChangedTime', [formatGeneralizedTime(when)]), replace('pwdGraceUseTime', [])],
      new Control(RELAX, { critical: true }),
    ),
  );
}

/**
 * Locks a person's entry as slapd's ppolicy does after pwdMaxFailure failed binds (pwdAccountLockedTime now;
 * with pwdLockoutDuration 0 it stays locked until an administrator unlocks it). Used for the sign-in's second
 * step (issue 37), whose wrong codes the portal counts.
 */
export async function lockAccount(cfg: DirectoryConfig, username: string, when = new Date()): Promise<void> {
  await withAdmin(cfg, (c) =>
    c.modify(
      userDn(cfg, username),
      replace('pwdAccountLockedTime', [formatGeneralizedTime(when)]),
      new Control(RELAX, { critical: true }),
    ),
  );
}

/** The stored password hashes of a person: the current one(s), then pwdHistory newest first. */
export async function readPasswordHashes(
  cfg: DirectoryConfig,
  username: string,
): Promise<{ current: string[]; history: string[] }> {
  return withAdmin(cfg, async (c) => {
    const { searchEntries } = await c.search(userDn(cfg, username), {
      scope: 'base',
      filter: '(objectClass=*)',
      attributes: ['userPassword', 'pwdHistory'],
    });
    const e = searchEntries[0];
    const list = (v: unknown): string[] => ([] as unknown[]).concat(v ?? []).map((x) => String(x));
    const history = list(e?.['pwdHistory']).sort().reverse().map(historyValue);
    return { current: list(e?.['userPassword']), history };
  });
}

/** Whether `password` is the current password or one of the last `depth` ones (ppolicy pwdInHistory). */
export async function isRecentPassword(
  cfg: DirectoryConfig,
  username: string,
  password: string,
  depth: number,
): Promise<boolean> {
  const { current, history } = await readPasswordHashes(cfg, username);
  const checks = await Promise.all(
    [...current, ...history.slice(0, depth)].map((h) => verifyPasswordHash(password, h)),
  );
  return checks.some(Boolean);
}

/** Whether the person's entry has a password (000 §7 hasSetInitialPassword). */
export async function hasPassword(cfg: DirectoryConfig, username: string): Promise<boolean> {
  return (await readPasswordHashes(cfg, username)).current.length > 0;
}

/**
 * The portal's password policy lives in the directory's default ppolicy entry (cn=default,ou=policies), so
 * slapd and the portal enforce the same numbers: lockout, maximum age and expiry warning, grace sign-ins,
 * minimum age (the 'password-change time restriction'), history, minimum length and must-change after an
 * administrator's reset (000 §4 Password expiry, §7, §8 Sign-in; issue 3 "Rules that must really hold").
 */
import type { Client, Entry } from 'ldapts';
import { type DirectoryConfig, defaultPolicyDn } from './config';
import { withAdmin } from './client';

export interface PasswordPolicy {
  /** pwdMaxFailure: consecutive failed binds before the account locks (0: no lockout). */
  maxFailure: number;
  /** pwdMinAge, seconds: how long after a change the user may not change again (0: no restriction). */
  minAge: number;
  /** pwdMaxAge, seconds: a password older than this is expired (0: never). */
  maxAge: number;
  /** pwdExpireWarning, seconds before expiry from which sign-in warns (WARN_CHANGE). */
  expireWarning: number;
  /** pwdGraceAuthNLimit: sign-ins still allowed with an expired password (each one is FORCE_CHANGE). */
  graceAuthNLimit: number;
  /** pwdInHistory: how many earlier passwords may not be reused. */
  inHistory: number;
  /** pwdMinLength (checked by slapd with pwdCheckQuality 2). */
  minLength: number;
  /** pwdMustChange: a password set by an administrator must be changed at the next sign-in (pwdReset). */
  mustChange: boolean;
  /** pwdAllowUserChange: users may change their own password. */
  allowUserChange: boolean;
}

const DAY = 86_400;

/** The defaults written by ensureTree (documented in docs/decisions.md). */
export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = {
  maxFailure: 5,
  minAge: DAY,
  maxAge: 90 * DAY,
  expireWarning: 14 * DAY,
  graceAuthNLimit: 3,
  inHistory: 5,
  minLength: 12,
  mustChange: true,
  allowUserChange: true,
};

const bool = (v: boolean): string => (v ? 'TRUE' : 'FALSE');

/** The pwdPolicy attributes of a policy (what ensureTree writes). */
export function policyAttributes(p: PasswordPolicy): Record<string, string> {
  return {
    pwdAttribute: 'userPassword',
    pwdLockout: bool(p.maxFailure > 0),
    pwdMaxFailure: String(p.maxFailure),
    pwdFailureCountInterval: '0',
    pwdLockoutDuration: '0',
    pwdMinAge: String(p.minAge),
    pwdMaxAge: String(p.maxAge),
    pwdExpireWarning: String(p.expireWarning),
    pwdGraceAuthNLimit: String(p.graceAuthNLimit),
    pwdInHistory: String(p.inHistory),
    pwdCheckQuality: '2',
    pwdMinLength: String(p.minLength),
    pwdMustChange: bool(p.mustChange),
    pwdAllowUserChange: bool(p.allowUserChange),
    pwdSafeModify: 'FALSE',
  };
}

function value(entry: Entry | undefined, attr: string): string {
  const v = entry?.[attr];
  return String(Array.isArray(v) ? (v[0] ?? '') : (v ?? ''));
}

const num = (entry: Entry | undefined, attr: string): number => {
  const n = Number(value(entry, attr));
  return Number.isFinite(n) && n > 0 ? n : 0;
};

/** Reads the default policy entry with an admin-bound client (missing values count as 0 / FALSE). */
export async function readPolicyWith(client: Client, cfg: DirectoryConfig): Promise<PasswordPolicy> {
  const { searchEntries } = await client
    .search(defaultPolicyDn(cfg), { scope: 'base', filter: '(objectClass=pwdPolicy)' })
    .catch(() => ({ searchEntries: [] as Entry[] }));
  const e = searchEntries[0];
  return {
    maxFailure: value(e, 'pwdLockout') === 'TRUE' ? num(e, 'pwdMaxFailure') : 0,
    minAge: num(e, 'pwdMinAge'),
    maxAge: num(e, 'pwdMaxAge'),
    expireWarning: num(e, 'pwdExpireWarning'),
    graceAuthNLimit: num(e, 'pwdGraceAuthNLimit'),
    inHistory: num(e, 'pwdInHistory'),
    minLength: num(e, 'pwdMinLength'),
    mustChange: value(e, 'pwdMustChange') === 'TRUE',
    allowUserChange: value(e, 'pwdAllowUserChange') !== 'FALSE',
  };
}

/** The directory's password policy (000 §4). */
export async function readPolicy(cfg: DirectoryConfig): Promise<PasswordPolicy> {
  return withAdmin(cfg, (client) => readPolicyWith(client, cfg));
}

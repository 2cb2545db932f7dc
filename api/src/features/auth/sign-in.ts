/**
 * Sign-in against the directory (000 §4 Sign-in, Password expiry; §3 Sign-in response; §8 Sign-in). The
 * portal binds as the person; slapd's ppolicy decides, and its operational attributes tell the portal why:
 * pwdAccountLockedTime (accountLocked), pwdFailureTime (attemptsLeftUntilLocked), pwdChangedTime + pwdMaxAge
 * with the grace sign-ins (ForceUserToChangePassword, or passwordExpired once they are used up),
 * pwdExpireWarning (WarnUserToChangePassword) and pwdReset (ForceUserToChangePassword). An inactive portal
 * user is accountDisabled. The password is checked before the account's state is revealed. A name no account
 * has answers like a real account with a wrong password, countdown and lock included (issue 13,
 * unknown-failures.ts), after the same directory work (a bind against the timing entry). A password stored in
 * an older form is re-hashed as argon2id once the bind has proven it (docs/decisions.md "Passwords stored
 * with Argon2id"); that is not a password change, and its failure never fails the sign-in.
 */
import type { TokenCreateResponse } from '@portal/contract';
import { CONSTANTS, MESSAGES } from '@portal/contract';
import {
  bindAsNobody,
  bindAsUser,
  type DirectoryPerson,
  findPerson,
  type PasswordPolicy,
  passwordStatus,
  readPolicy,
  upgradePasswordHash,
} from '@portal/directory';
import type { Deps } from '../../deps';
import { forgetUnknownFailures, loginDigest, recordUnknownFailure, unknownFailures } from './unknown-failures';

export type SignInResult =
  | {
      ok: true;
      portalUserId: number;
      expiryState?: 'ForceUserToChangePassword' | 'WarnUserToChangePassword';
    }
  | { ok: false; status: 401 | 503; body: TokenCreateResponse };

/** The 000 §8 text of a failure body (with the lockout warning when fewer than 3 attempts are left). */
export function failureMessage(body: TokenCreateResponse): string {
  const m = MESSAGES.signIn;
  if (body.accountLocked) return m.accountLocked;
  if (body.accountDisabled) return m.accountDisabled;
  if (body.passwordExpired) return m.passwordExpired;
  if (body.credentialsInvalid) {
    const left = body.attemptsLeftUntilLocked;
    return left !== undefined && left < CONSTANTS.lockoutWarningThreshold
      ? `${m.credentialsInvalid} ${m.lockoutWarning(left)}`
      : m.credentialsInvalid;
  }
  return m.unspecifiedFailure;
}

const fail = (body: TokenCreateResponse, status: 401 | 503 = 401): SignInResult => ({
  ok: false,
  status,
  body: { ...body, message: failureMessage(body) },
});

/** Why a bind failed, read from the entry after the attempt. */
function bindFailure(before: DirectoryPerson, after: DirectoryPerson | null, policy: PasswordPolicy): SignInResult {
  if (!after) return fail({ credentialsInvalid: true });
  if (after.lockedTime) return fail({ accountLocked: true });
  const counted = after.failureCount > before.failureCount;
  // A right password that is expired with no grace sign-in left fails without counting as a failure.
  if (!counted && passwordStatus(after, policy).expired && after.graceUses >= policy.graceAuthNLimit) {
    return fail({ passwordExpired: true });
  }
  return fail(
    policy.maxFailure > 0
      ? { credentialsInvalid: true, attemptsLeftUntilLocked: Math.max(0, policy.maxFailure - after.failureCount) }
      : { credentialsInvalid: true },
  );
}

/**
 * A name no account has (issue 13): the same work as a wrong password for a real account (a bind against the
 * directory's timing entry, a second search) and the same answers, counted in the portal's own table: the
 * countdown, then `accountLocked` after `pwdMaxFailure` failures, then `accountLocked` to any password.
 */
async function unknownNameFailure(
  deps: Deps,
  login: string,
  password: string,
  policy: PasswordPolicy,
): Promise<SignInResult> {
  const digest = loginDigest(deps.cfg, login);
  const max = policy.maxFailure;
  if (max > 0 && (await unknownFailures(deps.prisma, deps.cfg, digest)) >= max) return fail({ accountLocked: true });
  await bindAsNobody(deps.directory, password);
  const [, failures] = await Promise.all([
    findPerson(deps.directory, login),
    max > 0 ? recordUnknownFailure(deps.prisma, deps.cfg, digest) : Promise.resolve(0),
  ]);
  if (max === 0) return fail({ credentialsInvalid: true });
  if (failures >= max) return fail({ accountLocked: true });
  return fail({ credentialsInvalid: true, attemptsLeftUntilLocked: max - failures });
}

/** Re-hashes the proven password in the current form; a failure is logged and left for the next sign-in. */
async function rehash(deps: Deps, person: DirectoryPerson, password: string): Promise<void> {
  try {
    await upgradePasswordHash(deps.directory, person.dn, password);
  } catch (err) {
    console.warn(`sign-in: the stored password of ${person.username} not re-hashed: ${(err as Error).message}`);
  }
}

/** Signs a person in by username or email address (000 §2 Sign-in screen). */
export async function signIn(deps: Deps, login: string, password: string): Promise<SignInResult> {
  try {
    const [person, policy] = await Promise.all([findPerson(deps.directory, login), readPolicy(deps.directory)]);
    if (!person) return await unknownNameFailure(deps, login, password, policy);
    if (person.lockedTime) return fail({ accountLocked: true });
    const bound = await bindAsUser(deps.directory, person.dn, password);
    if (!bound.ok) {
      const [after] = await Promise.all([
        findPerson(deps.directory, login),
        forgetUnknownFailures(deps.prisma, loginDigest(deps.cfg, login)),
      ]);
      return bindFailure(person, after, policy);
    }
    if (person.passwordNeedsRehash) await rehash(deps, person, password);

    const user = await deps.prisma.portalUser.findFirst({
      where: { OR: [{ uuid: person.uuid }, { username: person.username }] },
    });
    if (!user) return fail({ unspecifiedFailure: true });
    if (user.inactive) return fail({ accountDisabled: true });
    const status = passwordStatus(person, policy);
    if (status.forceChange) return { ok: true, portalUserId: user.id, expiryState: 'ForceUserToChangePassword' };
    if (status.warn) return { ok: true, portalUserId: user.id, expiryState: 'WarnUserToChangePassword' };
    return { ok: true, portalUserId: user.id };
  } catch {
    return fail({ unspecifiedFailure: true }, 503);
  }
}

/**
 * A portal user's password account in the directory (000 §3 capabilities can_change_password_ever / now,
 * §7 hasSetInitialPassword, isUserCurrentlyRestrictedByAllowChangeTime, clearUsersPasswordAllowChangeTime).
 * 'Ever' means the portal manages the user's password: an active user with a directory entry while the
 * policy lets users change their own password; 'now' adds that no restriction or lockout stands in the way.
 */
import type { PortalUser } from '@portal/db';
import {
  type DirectoryPerson,
  findPerson,
  findPersonByUuid,
  hasPassword,
  passwordStatus,
  type PasswordPolicy,
  readPolicy,
  setPasswordChangedTime,
} from '@portal/directory';
import type { Deps } from '../../deps';

type UserRef = Pick<PortalUser, 'uuid' | 'username' | 'inactive'>;

/** The directory entry of a portal user (by entryUUID, else by username), or null. */
export async function personOf(deps: Deps, user: UserRef): Promise<DirectoryPerson | null> {
  const person = user.uuid ? await findPersonByUuid(deps.directory, user.uuid) : null;
  if (person) return person;
  const byName = await findPerson(deps.directory, user.username);
  return byName && byName.username === user.username ? byName : null;
}

export interface PasswordCapabilities {
  person: DirectoryPerson | null;
  policy: PasswordPolicy;
  ever: boolean;
  now: boolean;
  /** pwdMinAge restriction in force (the 'password-change time restriction'). */
  restricted: boolean;
  /** When that restriction ends (pwdChangedTime + pwdMinAge), or null when none stands. */
  restrictedUntil: Date | null;
}

/** Everything the capability calls need, in one directory round. @throws on an unreachable directory. */
export async function passwordCapabilities(deps: Deps, user: UserRef): Promise<PasswordCapabilities> {
  const [person, policy] = await Promise.all([personOf(deps, user), readPolicy(deps.directory)]);
  const ever = !!person && !user.inactive && policy.allowUserChange;
  const restrictedUntil = person ? passwordStatus(person, policy).restrictedUntil : null;
  const restricted = restrictedUntil !== null;
  return { person, policy, ever, now: ever && !restricted && !person?.lockedTime, restricted, restrictedUntil };
}

/** Whether the user's directory entry has a password yet. @throws on an unreachable directory. */
export async function hasSetInitialPassword(deps: Deps, user: UserRef): Promise<boolean> {
  const person = await personOf(deps, user);
  return !!person && (await hasPassword(deps.directory, person.username));
}

/**
 * Lifts the minimum-age restriction: pwdChangedTime moves back to just before the restriction would end
 * (so expiry comes at most pwdMinAge earlier). @returns false when nothing was restricted.
 */
export async function clearChangeTimeRestriction(deps: Deps, person: DirectoryPerson): Promise<boolean> {
  const policy = await readPolicy(deps.directory);
  if (!passwordStatus(person, policy).restrictedUntil) return false;
  await setPasswordChangedTime(deps.directory, person.username, new Date(Date.now() - policy.minAge * 1000 - 1000));
  return true;
}

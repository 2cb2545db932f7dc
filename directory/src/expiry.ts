/**
 * What a person's ppolicy state means for the portal (000 §4 Password expiry, §7 sign-in flags), computed
 * from the operational attributes slapd keeps (pwdChangedTime, pwdReset) and the policy. Pure: no I/O.
 */
import type { PasswordPolicy } from './policy';

export interface PasswordState {
  /** pwdChangedTime; null when the directory has none (no expiry, no restriction). */
  changedTime: Date | null;
  /** pwdReset: set by an administrator's write while pwdMustChange is on. */
  mustChange: boolean;
}

export interface PasswordStatus {
  /** Older than pwdMaxAge: only grace sign-ins remain, each of them FORCE_CHANGE. */
  expired: boolean;
  /** Inside the pwdExpireWarning window before expiry: WARN_CHANGE. */
  warn: boolean;
  /** Must be changed before anything else (expired, or reset by an administrator). */
  forceChange: boolean;
  expiresAt: Date | null;
  /** The 'password-change time restriction' (pwdMinAge): the user may not change it before then. */
  restrictedUntil: Date | null;
}

/** Derives expiry, warning, forced change and the minimum-age restriction at `now`. */
export function passwordStatus(state: PasswordState, policy: PasswordPolicy, now = new Date()): PasswordStatus {
  const changed = state.changedTime?.getTime();
  const expiresAt = changed !== undefined && policy.maxAge > 0 ? new Date(changed + policy.maxAge * 1000) : null;
  const expired = !!expiresAt && now >= expiresAt;
  const warn =
    !!expiresAt &&
    !expired &&
    policy.expireWarning > 0 &&
    now.getTime() >= expiresAt.getTime() - policy.expireWarning * 1000;
  const until = changed !== undefined && policy.minAge > 0 ? new Date(changed + policy.minAge * 1000) : null;
  // slapd lets a password reset by an administrator be changed at once (pwdReset skips pwdMinAge).
  const restrictedUntil = until && now < until && !state.mustChange ? until : null;
  return { expired, warn, forceChange: expired || state.mustChange, expiresAt, restrictedUntil };
}

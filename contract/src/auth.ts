import { z } from 'zod';
import { FIELD_LIMITS } from './limits';
import { IdParamsSchema } from './ids';
import { textSchema } from './text';

/**
 * The password lifecycle and the session (000 §2 Forgot / Set / Change Password screens and the inactivity
 * modal, §3 authentication entities, §4 Password expiry / Session timeout, §5, §7, §8 Passwords, §9):
 * request bodies, the spec's texts and constants. Shared by the API and the browser.
 */

/** 000 §8 Passwords (and the 000 §4 / §5 password texts), word for word. */
export const AUTH_MESSAGES = {
  changeFailed: 'Unable to change your password due to one or more errors.',
  changeFailedForm: 'An error has occurred.',
  resetFailed: 'Unable to set your password due to one or more errors.',
  forgotFailed: 'Problem submitting Forgot Password request.',
  forgotSent: (email: string) =>
    `An email has been sent to ${email} containing further instructions. If you do not receive this email or experience any issues, please contact support.`,
  badSetLink: 'Error with link to set password. Contact support.',
  badResetLink: 'Error with link to reset password. Contact support.',
  invalidHash: 'Unable to display the Set Password form due to an invalid or missing hash value.',
  passwordsDoNotMatch: 'The new passwords do not match.',
  expiredBanner: 'Your password has expired. You must change it now before proceeding to the Portal Gateway.',
  warnBanner:
    'Your password will expire soon. You may change it now or you will be reminded again the next time you log in.',
  changedStandalone: 'Your password was successfully updated.',
  changedInApp: 'Password successfully changed.',
  restrictionUnknown: 'Unable to determine if user is currently restricted from changing their password.',
  restrictionClearFailed: "Unable to clear user's password-change time restriction.",
  resend: {
    failedTitle: 'Email Not Sent',
    unexpected: 'Failed to resend initial email due to unexpected error',
    notPermitted: 'This user is not permitted to change their password using the Portal Gateway',
    alreadySet: 'This user has already set their initial password',
    undetermined: 'Unexpected error: failed to determine whether user is allowed to set their password',
    sentTitle: 'Email Successfully Sent',
    sent: 'Initial email has been resent.',
  },
  inactivityTitle: 'Are you still there?',
  staySignedIn: 'Stay Signed In',
  /**
   * Not worded by the spec (decision, docs/decisions.md): the answer to a call refused by a rate limit,
   * and the inactivity modal's sentence around the spec's minutes-or-seconds countdown.
   */
  tooManyRequests: 'Too many attempts. Please wait a minute and try again.',
  inactivityText: (remaining: string) => `You will be signed out in ${remaining} because of inactivity.`,
} as const;

/** 000 §9 constants of the password screens and the session countdown. */
export const AUTH_CONSTANTS = {
  /** Set Password form reveal, forgot-password call delay, success alert delay (000 §9). */
  resetFormDelayMs: 500,
  forgotPasswordDelayMs: 500,
  successAlertDelayMs: 500,
  /** Inactivity countdown tick (000 §9). */
  countdownTickMs: 1000,
  /** Signed out when fewer than this many seconds remain (000 §4 "under 1 second"). */
  signOutBelowSeconds: 1,
} as const;

/** 000 §3 passwordExpiryState, from the sign-in response's expiryState (000 §4 Password expiry). */
export const PASSWORD_EXPIRY_STATES = ['FORCE_CHANGE', 'WARN_CHANGE'] as const;
export type PasswordExpiryState = (typeof PASSWORD_EXPIRY_STATES)[number];

/** Maps the sign-in response's expiryState to the browser's passwordExpiryState (000 §4). */
export function expiryStateOf(expiryState: string | undefined, passwordExpiresSoon: boolean | undefined) {
  if (!passwordExpiresSoon) return null;
  return expiryState === 'ForceUserToChangePassword' ? 'FORCE_CHANGE' : 'WARN_CHANGE';
}

/**
 * The inactivity modal's remaining time (000 §2 Inactivity modal): whole minutes rounded up when more than
 * one minute remains, otherwise seconds.
 */
export function formatRemaining(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  if (s > 60) return `${Math.ceil(s / 60)} minutes`;
  return s === 1 ? '1 second' : `${s} seconds`;
}

/** Passwords are never trimmed; the length cap only keeps absurd bodies out (the rules say the rest). */
const password = textSchema(256, { min: 1, trim: false });

/** A set-initial / reset link's hash: 32 random bytes, base64url (43 characters). */
export const PASSWORD_HASH_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const hash = z.string().min(1).regex(PASSWORD_HASH_PATTERN);

export const HashParamSchema = z.object({ hash });

/** 000 §3 Reset payload: hash, password (POST /rest/public/{set_initial_password|reset_password}). */
export const PasswordSetBodySchema = z.object({ hash, password });
export type PasswordSetBody = z.infer<typeof PasswordSetBodySchema>;

/** 000 §3 Change-password payload (POST /rest/secure/change_password/attempt). */
export const ChangePasswordBodySchema = z.object({ currentPassword: password, newPassword: password });
export type ChangePasswordBody = z.infer<typeof ChangePasswordBodySchema>;

/** 000 §3 Forgot-password payload (POST /rest/public/forgot_password). */
export const ForgotPasswordBodySchema = z.object({
  emailAddress: textSchema(FIELD_LIMITS.email, { min: 1 }).pipe(z.email()),
});
export type ForgotPasswordBody = z.infer<typeof ForgotPasswordBodySchema>;

/** 000 §3 Password rule; GET /rest/public/password_validation/rules answers an object of them by id. */
export const PasswordRuleSchema = z.object({ id: z.string(), text: z.string() });
export type PasswordRule = z.infer<typeof PasswordRuleSchema>;
export const PasswordRulesSchema = z.record(z.string(), PasswordRuleSchema);
export type PasswordRules = z.infer<typeof PasswordRulesSchema>;

/**
 * GET /rest/secure/user_capabilities/password_change_restriction (issue 9; beside 000 §7
 * can_change_password_now, whose bare boolean stays as the spec has it): whether the user may change their
 * password now and, inside the minimum-age restriction (ppolicy pwdMinAge after pwdChangedTime), the ISO time
 * from which a change is possible; null when no such restriction stands (a lockout or an unmanaged password
 * also answer canChangeNow false, with no time).
 */
export const PasswordChangeRestrictionSchema = z.object({
  canChangeNow: z.boolean(),
  changeAllowedFrom: z.iso.datetime().nullable(),
});
export type PasswordChangeRestriction = z.infer<typeof PasswordChangeRestrictionSchema>;

/** Answers of the password calls that fail without field errors (000 §3: failureDescription, responseText). */
export interface PasswordFailure {
  failureDescription?: string;
  responseText?: string;
  fieldErrors?: Record<string, string[]>;
  globalErrors?: string[];
}

/** Path params of the user-management capability calls (000 §7). */
export const PortalUserIdParamSchema = IdParamsSchema;
export const PortalUserUuidParamSchema = z.object({ uuid: z.guid() });

/** GET /rest/secure/token/refresh (000 §7). */
export interface TokenRefreshResponse {
  tokenTimeoutInSeconds: number;
}

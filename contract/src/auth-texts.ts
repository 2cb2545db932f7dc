/**
 * The zod-free part of the password lifecycle and the session (split from auth.ts so the browser's sign-in
 * page loads no zod, issue 14): the spec's texts and constants, the expiry state and the countdown text, and
 * the passkeys' texts (docs/decisions.md "Passkeys"), which the sign-in page shows too.
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
  /** A secure call whose session could not be checked: PostgreSQL stopped or not answering (503). */
  databaseUnavailable: 'The portal cannot reach its database right now. Please try again in a few minutes.',
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

/**
 * The passkeys' texts (docs/decisions.md "Passkeys"): the API's refusals, which the web app shows as they are,
 * and the browser's own outcomes (a prompt cancelled, a browser without WebAuthn). Not worded by the spec.
 */
export const PASSKEY_TEXTS = {
  refused: 'This passkey or security key could not be added. Please try again.',
  taken: 'This passkey or security key is already registered.',
  usePasswordForm: 'Your password must be changed. Please sign in with your username and password to change it.',
  /** The browser's prompt was cancelled, timed out, or no passkey of this portal was chosen. */
  cancelled: 'No passkey was used: the request was cancelled or timed out. Please try again.',
  unsupported: 'This browser cannot use passkeys or security keys.',
  /** The second step of a person without a passkey when the phishing-resistant level is asked for. */
  noPasskey: (providerName: string) =>
    `The requested ${providerName} portal application asks for a sign-in with a passkey or security key, and you have none set up yet. You can add one under Security in your profile, then open the application again.`,
} as const;

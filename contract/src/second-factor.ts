/**
 * A person's second factors, as the profile's Security tab manages them (issue 37; docs/decisions.md "Second
 * factors"): authenticator-app codes (TOTP) and recovery codes. Adding or removing one asks for the password
 * again; the first factor is confirmed through a link mailed to the person. Nothing here ever carries a
 * stored secret: the TOTP secret is answered once, at enrolment, and recovery codes once, when issued.
 */
import { z } from 'zod';
import { textSchema } from './text';

/** The kinds of factor: an authenticator app's codes, a passkey or security key (contract/src/passkeys.ts). */
export const SECOND_FACTOR_KINDS = ['TOTP', 'WEBAUTHN'] as const;
export type SecondFactorKind = (typeof SECOND_FACTOR_KINDS)[number];

/** An enrolled factor's state: signing in, or a first factor waiting for the mailed link. */
export const SECOND_FACTOR_STATES = ['ACTIVE', 'AWAITING_EMAIL'] as const;
export type SecondFactorState = (typeof SECOND_FACTOR_STATES)[number];

export const SecondFactorSchema = z.object({
  id: z.number().int(),
  kind: z.enum(SECOND_FACTOR_KINDS),
  label: z.string(),
  state: z.enum(SECOND_FACTOR_STATES),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type SecondFactor = z.infer<typeof SecondFactorSchema>;

/** GET /rest/secure/second_factor: the signed-in person's factors (never their secrets). */
export const SecondFactorOverviewSchema = z.object({
  factors: z.array(SecondFactorSchema),
  recoveryCodesLeft: z.number().int(),
  /** The person holds a permission whose holders must use a second factor (SECOND_FACTOR_REQUIRED_PERMISSIONS). */
  required: z.boolean(),
  /** False when the portal has no SECOND_FACTOR_KEY: nothing can be enrolled. */
  available: z.boolean(),
});
export type SecondFactorOverview = z.infer<typeof SecondFactorOverviewSchema>;

/** The password, asked again before a factor is added or removed or recovery codes are issued. */
export const PasswordAgainBodySchema = z.strictObject({ password: textSchema(256, { min: 1, trim: false }) });
export type PasswordAgainBody = z.infer<typeof PasswordAgainBodySchema>;

/** POST /rest/secure/second_factor/totp. */
export const BeginTotpBodySchema = z.strictObject({
  password: textSchema(256, { min: 1, trim: false }),
  /** The person's name for the device ('Work phone'). */
  label: textSchema(64, { min: 1 }),
});
export type BeginTotpBody = z.infer<typeof BeginTotpBodySchema>;

/** The enrolment's secret, answered once: as text, as the app's URI, and as that URI's QR code (SVG). */
export const TotpEnrolmentSchema = z.object({
  factorId: z.number().int(),
  secret: z.string(),
  uri: z.string(),
  qrSvg: z.string(),
});
export type TotpEnrolmentAnswer = z.infer<typeof TotpEnrolmentSchema>;

/** POST /rest/secure/second_factor/totp/{id}/confirm: a code from the app proves it holds the secret. */
export const ConfirmTotpBodySchema = z.strictObject({ code: z.string().min(1).max(16) });
export type ConfirmTotpBody = z.infer<typeof ConfirmTotpBodySchema>;

/**
 * ACTIVE: the factor signs the person in (a further factor), with `recoveryCodes` when none were left.
 * AWAITING_EMAIL: a first factor, waiting for the link mailed to the person.
 */
export const ConfirmTotpAnswerSchema = z.object({
  state: z.enum(SECOND_FACTOR_STATES),
  recoveryCodes: z.array(z.string()).optional(),
});
export type ConfirmTotpAnswer = z.infer<typeof ConfirmTotpAnswerSchema>;

/** POST /rest/secure/second_factor/confirm_email: the token of the mailed link. */
export const ConfirmFactorLinkBodySchema = z.strictObject({ token: z.string().min(1).max(128) });
export type ConfirmFactorLinkBody = z.infer<typeof ConfirmFactorLinkBodySchema>;

/** Recovery codes, shown once. */
export const RecoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodesAnswer = z.infer<typeof RecoveryCodesSchema>;

/** What READ_USERS sees of a person's second factors (never a secret, never a code). */
export const UserSecondFactorsSchema = z.object({
  kinds: z.array(z.enum(SECOND_FACTOR_KINDS)),
  awaitingEmail: z.boolean(),
  recoveryCodesLeft: z.number().int(),
});
export type UserSecondFactors = z.infer<typeof UserSecondFactorsSchema>;

/** The texts of the Security tab's refusals and mails (the web app shows the API's words). */
export const SECOND_FACTOR_TEXTS = {
  passwordWrong: 'The password is not correct.',
  codeWrong: 'That code is not right, or it was already used. Enter the code your app shows now.',
  linkInvalid: 'This confirmation link is not valid any more. Add the authenticator app again to get a new link.',
  lastFactor:
    'Your only authenticator app cannot be removed. Add another one first, or ask an administrator to reset your sign-in methods.',
  unavailable: 'Second sign-in steps are not available on this portal.',
  mailUnavailable: 'The confirmation email could not be sent. Please try again in a few minutes.',
  directoryUnavailable: 'Your password cannot be checked right now. Please try again in a few minutes.',
  noFactor: 'Add an authenticator app first.',
  mailSubjectConfirm: 'Portal Gateway: confirm your new sign-in method',
  mailSubjectAdded: 'Portal Gateway: a sign-in method was added to your account',
  mailSubjectRemoved: 'Portal Gateway: a sign-in method was removed from your account',
  mailSubjectReset: 'Portal Gateway: your sign-in methods were reset',
} as const;

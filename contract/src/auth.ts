import { z } from 'zod';
import { FIELD_LIMITS } from './limits';
import { IdParamsSchema } from './ids';
import { textSchema } from './text';

/**
 * The password lifecycle and the session (000 §2 Forgot / Set / Change Password screens and the inactivity
 * modal, §3 authentication entities, §4 Password expiry / Session timeout, §5, §7, §8 Passwords, §9):
 * request bodies, the spec's texts and constants. Shared by the API and the browser.
 */

export * from './auth-texts';

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

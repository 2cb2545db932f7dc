/**
 * Passkeys and security keys (WebAuthn Level 3) as a person's second factor and as a whole sign-in
 * (docs/decisions.md "Passkeys"). The options the API answers are WebAuthn's JSON forms
 * (PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON), handed as they are to the
 * browser's `navigator.credentials`; the bodies carry the browser's `PublicKeyCredential.toJSON()`. Every
 * binary field is base64url, bounded here so a hostile payload is refused before any decoding.
 */
import { z } from 'zod';
import { textSchema } from './text';

/** A base64url field (RFC 4648 §5; padding tolerated) of at most `max` characters. */
const base64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, 'must be base64url');

/** A credential id: WebAuthn allows 1023 bytes (1364 base64url characters). */
const CredentialIdSchema = base64url(1400);

/** The browser's `clientExtensionResults`: kept as an object, never read by the portal. */
const ExtensionResultsSchema = z.record(z.string().max(64), z.unknown()).default({});

/** POST /rest/secure/second_factor/webauthn/options: the password again and the person's name for the key. */
export const BeginPasskeyBodySchema = z.strictObject({
  password: textSchema(256, { min: 1, trim: false }),
  /** 'Laptop', 'Blue security key'. */
  label: textSchema(64, { min: 1 }),
});
export type BeginPasskeyBody = z.infer<typeof BeginPasskeyBodySchema>;

/** WebAuthn options as the API answers them (only `challenge` is read by the schema; the rest is passed on). */
export const PasskeyOptionsAnswerSchema = z.object({
  options: z.looseObject({ challenge: z.string() }),
});
export type PasskeyOptionsAnswer = z.infer<typeof PasskeyOptionsAnswerSchema>;

/** A registration's `PublicKeyCredential.toJSON()` (WebAuthn §5.1, RegistrationResponseJSON). */
export const PasskeyRegistrationSchema = z.object({
  id: CredentialIdSchema,
  rawId: CredentialIdSchema,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(4096),
    attestationObject: base64url(32_768),
    transports: z.array(z.string().max(32)).max(12).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: ExtensionResultsSchema,
});
export type PasskeyRegistration = z.infer<typeof PasskeyRegistrationSchema>;

/** POST /rest/secure/second_factor/webauthn: the new credential, answering the options' challenge. */
export const AddPasskeyBodySchema = z.strictObject({ credential: PasskeyRegistrationSchema });
export type AddPasskeyBody = z.infer<typeof AddPasskeyBodySchema>;

/** An authentication's `PublicKeyCredential.toJSON()` (WebAuthn §5.1, AuthenticationResponseJSON). */
export const PasskeyAssertionSchema = z.object({
  id: CredentialIdSchema,
  rawId: CredentialIdSchema,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(4096),
    authenticatorData: base64url(4096),
    // ML-DSA-65 signatures (COSE alg -49) are 3309 bytes, about 4.4 K base64url characters: room for them.
    signature: base64url(8192),
    userHandle: base64url(128).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: ExtensionResultsSchema,
});
export type PasskeyAssertion = z.infer<typeof PasskeyAssertionSchema>;

/** POST /rest/token/webauthn (a passkey sign-in) and the second step's passkey answer. */
export const PasskeySignInBodySchema = z.strictObject({ assertion: PasskeyAssertionSchema });
export type PasskeySignInBody = z.infer<typeof PasskeySignInBodySchema>;

/**
 * Secrets stored sealed in PostgreSQL: AES-256-GCM under a key derived (HKDF-SHA-256) from a configured secret
 * and a purpose, so one configured secret never encrypts two kinds of data under the same key. Used for the
 * single sign-on provider's signing keys (purpose `signing-keys`, oidc-keys.ts) and the second factors'
 * secrets (`second-factor-secrets`). Stored form: base64url(iv 12 bytes ‖ tag 16 bytes ‖ ciphertext).
 */
import crypto from 'node:crypto';

/** The purpose the second factors' TOTP secrets are sealed under (api/src/auth/totp.ts, the demo seed). */
export const SECOND_FACTOR_SEAL_PURPOSE = 'second-factor-secrets';

/** The 32-byte key for `purpose` derived from the configured `secret`. */
export const deriveKey = (secret: string, purpose: string): Buffer =>
  Buffer.from(crypto.hkdfSync('sha256', secret, 'portal-oidc', purpose, 32));

/** Seals `plain` (UTF-8) for `purpose` under `secret`. */
export function sealText(secret: string, purpose: string, plain: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', deriveKey(secret, purpose), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** Opens what `sealText` sealed. @throws when `secret` or `purpose` is not the one it was sealed with, or it was altered. */
export function openText(secret: string, purpose: string, stored: string): string {
  const raw = Buffer.from(stored, 'base64url');
  const decipher = crypto.createDecipheriv('aes-256-gcm', deriveKey(secret, purpose), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

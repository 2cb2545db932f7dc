/**
 * Single sign-on client secrets (issue 22): shown once, stored only as a digest, compared in constant time. The
 * provider compares a presented secret with `verifyClientSecret` instead of the library's plaintext comparison;
 * the seed stores the demo system's. The secrets are made here, 256 random bits, so a salted SHA-256
 * (`sha256$<salt>$<digest>`, base64url) resists guessing as well as a slow hash would, and costs microseconds on
 * every token request instead of scrypt's ~70 ms (the bench's code flow). Digests of the older `scrypt$` form
 * still verify.
 */
import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

/** A new random secret (43 characters, base64url of 32 bytes). */
export const newClientSecret = (): string => crypto.randomBytes(32).toString('base64url');

const sha256 = (salt: Buffer, secret: string): Buffer =>
  crypto.createHash('sha256').update(salt).update(secret, 'utf8').digest();

/** The stored form of `secret`. */
export async function hashClientSecret(secret: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  return `sha256$${salt.toString('base64url')}$${sha256(salt, secret).toString('base64url')}`;
}

/** True when `presented` is the secret `stored` was made from; false for a malformed `stored`. */
export async function verifyClientSecret(stored: string, presented: string): Promise<boolean> {
  const [scheme, salt, digest] = stored.split('$');
  if (!salt || !digest) return false;
  const expected = Buffer.from(digest, 'base64url');
  const saltBytes = Buffer.from(salt, 'base64url');
  let actual: Buffer;
  if (scheme === 'sha256') actual = sha256(saltBytes, presented);
  else if (scheme === 'scrypt') actual = await scrypt(presented, saltBytes, expected.length || 32);
  else return false;
  return expected.length === actual.length && crypto.timingSafeEqual(expected, actual);
}

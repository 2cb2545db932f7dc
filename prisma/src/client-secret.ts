/**
 * Single sign-on client secrets (issue 22): shown once, stored only as a scrypt digest
 * (`scrypt$<salt>$<digest>`, base64url), compared in constant time. The provider compares a presented secret
 * with `verifyClientSecret` instead of the library's plaintext comparison; the seed stores the demo system's.
 */
import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;
const KEY_LENGTH = 32;

/** A new random secret (43 characters, base64url of 32 bytes). */
export const newClientSecret = (): string => crypto.randomBytes(32).toString('base64url');

/** The stored form of `secret`. */
export async function hashClientSecret(secret: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const digest = await scrypt(secret, salt, KEY_LENGTH);
  return `scrypt$${salt.toString('base64url')}$${digest.toString('base64url')}`;
}

/** True when `presented` is the secret `stored` was made from; false for a malformed `stored`. */
export async function verifyClientSecret(stored: string, presented: string): Promise<boolean> {
  const [scheme, salt, digest] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !digest) return false;
  const expected = Buffer.from(digest, 'base64url');
  const actual = await scrypt(presented, Buffer.from(salt, 'base64url'), expected.length || KEY_LENGTH);
  return expected.length === actual.length && crypto.timingSafeEqual(expected, actual);
}

import crypto from 'node:crypto';

/** Hashes a password as an RFC 2307 {SSHA} userPassword value (salted SHA-1, as slapd verifies it). */
export function sshaHash(password: string, salt: Buffer = crypto.randomBytes(8)): string {
  const digest = crypto.createHash('sha1').update(password, 'utf8').update(salt).digest();
  return `{SSHA}${Buffer.concat([digest, salt]).toString('base64')}`;
}

import crypto from 'node:crypto';

/** Hashes a password as an RFC 2307 {SSHA} userPassword value (salted SHA-1, as slapd verifies it). */
export function sshaHash(password: string, salt: Buffer = crypto.randomBytes(8)): string {
  const digest = crypto.createHash('sha1').update(password, 'utf8').update(salt).digest();
  return `{SSHA}${Buffer.concat([digest, salt]).toString('base64')}`;
}

/**
 * Checks a password against a stored userPassword / pwdHistory value. Only {SSHA} (what the portal and
 * slapd's default password-hash write) and {SHA} are understood; anything else never matches.
 */
export function verifyPasswordHash(password: string, stored: string): boolean {
  const m = /^\{(SSHA|SHA)\}(.+)$/i.exec(stored.trim());
  if (!m) return false;
  const raw = Buffer.from(m[2]!, 'base64');
  if (raw.length < 20) return false;
  const digest = raw.subarray(0, 20);
  const salt = m[1]!.toUpperCase() === 'SSHA' ? raw.subarray(20) : Buffer.alloc(0);
  const candidate = crypto.createHash('sha1').update(password, 'utf8').update(salt).digest();
  return crypto.timingSafeEqual(candidate, digest);
}

/** The stored value inside a pwdHistory entry ('time#syntax#length#value'). */
export function historyValue(entry: string): string {
  const parts = entry.split('#');
  return parts.length >= 4 ? parts.slice(3).join('#') : entry;
}

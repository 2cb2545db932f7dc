/**
 * How the portal stores and checks passwords in the directory (docs/decisions.md "Passwords stored with
 * Argon2id"): every value the portal writes is `{ARGON2}` + an argon2id PHC string, which slapd's `argon2`
 * module verifies on bind. Values written before (`{SSHA}`, salted SHA-1; `{SHA}`) and slapd's own argon2i
 * (what ppolicy_hash_cleartext writes on a person's own change) are still verified, for sign-in and for the
 * password history, and replaced by the current form once the plaintext is in hand (password-upgrade.ts).
 */
import crypto from 'node:crypto';
import { hash as argon2, verify as argon2Verify } from '@node-rs/argon2';
import type { DirectoryConfig } from './config';

/** @node-rs/argon2's `Algorithm.Argon2id` (a const enum, which isolated modules cannot read). */
const ARGON2ID = 2;

/** Argon2id's cost: memory in KiB, passes over it, and lanes. */
export interface Argon2Params {
  memoryKib: number;
  timeCost: number;
  parallelism: number;
}

/** OWASP Password Storage Cheat Sheet's first argon2id choice: 19 MiB, 2 passes, 1 lane. */
export const ARGON2_DEFAULTS: Argon2Params = { memoryKib: 19_456, timeCost: 2, parallelism: 1 };

/**
 * The weakest cost accepted in configuration: OWASP's table trades memory for passes (47 MiB × 1, 19 MiB × 2,
 * 12 MiB × 3, 9 MiB × 4, 7 MiB × 5), so at least 7 MiB and at least 7 MiB × 5 of memory × passes.
 */
export const ARGON2_MINIMUM = { memoryKib: 7_168, memoryTimesPasses: 7_168 * 5 } as const;

/**
 * The Argon2id cost of `cfg` (ARGON2_DEFAULTS for what it does not set).
 * @throws Error when memory × passes is under ARGON2_MINIMUM (the schema checks each value alone).
 */
export function argon2ParamsOf(cfg: Partial<DirectoryConfig>): Argon2Params {
  const params = {
    memoryKib: cfg.PASSWORD_ARGON2_MEMORY_KIB ?? ARGON2_DEFAULTS.memoryKib,
    timeCost: cfg.PASSWORD_ARGON2_TIME_COST ?? ARGON2_DEFAULTS.timeCost,
    parallelism: cfg.PASSWORD_ARGON2_PARALLELISM ?? ARGON2_DEFAULTS.parallelism,
  };
  if (params.memoryKib * params.timeCost < ARGON2_MINIMUM.memoryTimesPasses) {
    throw new Error(
      `PASSWORD_ARGON2_MEMORY_KIB × PASSWORD_ARGON2_TIME_COST is ${params.memoryKib * params.timeCost}: at least ${ARGON2_MINIMUM.memoryTimesPasses} (OWASP)`,
    );
  }
  return params;
}

/**
 * Hashes `password` as a `{ARGON2}` userPassword value: an argon2id PHC string
 * (`$argon2id$v=19$m=<KiB>,t=<passes>,p=<lanes>$<salt>$<hash>`, a random 16-byte salt). Runs off the event loop.
 */
export async function argon2Hash(password: string, params: Argon2Params): Promise<string> {
  const phc = await argon2(password, {
    algorithm: ARGON2ID,
    memoryCost: params.memoryKib,
    timeCost: params.timeCost,
    parallelism: params.parallelism,
  });
  return `{ARGON2}${phc}`;
}

/** The scheme of a stored userPassword / pwdHistory value ('OTHER' for anything the portal does not read). */
export type HashScheme = 'ARGON2ID' | 'ARGON2I' | 'SSHA' | 'SHA' | 'OTHER';

export function hashScheme(stored: string): HashScheme {
  const v = stored.trim();
  if (/^\{ARGON2\}\$argon2id\$/i.test(v)) return 'ARGON2ID';
  if (/^\{ARGON2\}\$argon2i\$/i.test(v)) return 'ARGON2I';
  if (/^\{SSHA\}/i.test(v)) return 'SSHA';
  if (/^\{SHA\}/i.test(v)) return 'SHA';
  return 'OTHER';
}

/** Whether `stored` is what the portal writes today: argon2id at exactly `params` (else it is re-hashed). */
export function isCurrentHash(stored: string, params: Argon2Params): boolean {
  const m = /^\{ARGON2\}\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/i.exec(stored.trim());
  return (
    !!m && Number(m[1]) === params.memoryKib && Number(m[2]) === params.timeCost && Number(m[3]) === params.parallelism
  );
}

/**
 * The legacy scheme: an RFC 2307 {SSHA} value (salted SHA-1). The portal no longer writes it; it stays to build
 * the entries that were written before (the upgrade's tests, a directory imported from elsewhere).
 */
export function sshaHash(password: string, salt: Buffer = crypto.randomBytes(8)): string {
  const digest = crypto.createHash('sha1').update(password, 'utf8').update(salt).digest();
  return `{SSHA}${Buffer.concat([digest, salt]).toString('base64')}`;
}

function verifySha(password: string, scheme: 'SSHA' | 'SHA', encoded: string): boolean {
  const raw = Buffer.from(encoded, 'base64');
  if (raw.length < 20) return false;
  const digest = raw.subarray(0, 20);
  const salt = scheme === 'SSHA' ? raw.subarray(20) : Buffer.alloc(0);
  const candidate = crypto.createHash('sha1').update(password, 'utf8').update(salt).digest();
  return crypto.timingSafeEqual(candidate, digest);
}

/**
 * Checks a password against a stored userPassword / pwdHistory value: `{ARGON2}` (argon2id or argon2i PHC
 * strings), `{SSHA}` and `{SHA}`. Anything else, or a malformed value, never matches.
 */
export async function verifyPasswordHash(password: string, stored: string): Promise<boolean> {
  const v = stored.trim();
  const scheme = hashScheme(v);
  if (scheme === 'ARGON2ID' || scheme === 'ARGON2I') {
    return argon2Verify(v.slice('{ARGON2}'.length), password).catch(() => false);
  }
  if (scheme === 'SSHA' || scheme === 'SHA') return verifySha(password, scheme, v.replace(/^\{[^}]+\}/, ''));
  return false;
}

/** The stored value inside a pwdHistory entry ('time#syntax#length#value'). */
export function historyValue(entry: string): string {
  const parts = entry.split('#');
  return parts.length >= 4 ? parts.slice(3).join('#') : entry;
}

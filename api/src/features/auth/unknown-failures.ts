/**
 * Failure counts of sign-in names the directory does not know (issue 13; docs/decisions.md "Sign-in tells no
 * accounts apart"). The directory's ppolicy counts a real account's failures; this table counts an unknown
 * name's, so both get the same countdown (`attemptsLeftUntilLocked`) and, after `pwdMaxFailure` failures, the
 * same `accountLocked`. Rows are keyed by an HMAC-SHA-256 of the normalised name (trimmed, NFC, lower case:
 * the directory matches uid and mail case-insensitively), with the API's directory secret as key, so the
 * table holds no name, nor anything a dictionary over leaked rows could reverse. A row counts only while its
 * last failure is younger than SIGN_IN_UNKNOWN_TTL_HOURS; at most SIGN_IN_UNKNOWN_MAX_NAMES rows are kept
 * (the least recently failed are dropped when a new name arrives), so a spray cannot grow the table.
 */
import crypto from 'node:crypto';
import type { PrismaClient } from '@portal/db';
import type { ApiConfig } from '../../config';

/** The sign-in name as the directory compares it. */
export const normaliseLogin = (login: string): string => login.trim().normalize('NFC').toLowerCase();

/** The table key of a sign-in name. */
export function loginDigest(cfg: Pick<ApiConfig, 'LDAP_ADMIN_PASSWORD'>, login: string): string {
  return crypto
    .createHmac('sha256', `unknown-sign-in|${cfg.LDAP_ADMIN_PASSWORD}`)
    .update(normaliseLogin(login))
    .digest('hex');
}

type Cfg = Pick<ApiConfig, 'SIGN_IN_UNKNOWN_TTL_HOURS' | 'SIGN_IN_UNKNOWN_MAX_NAMES'>;

const cutoff = (cfg: Cfg, now = Date.now()): Date => new Date(now - cfg.SIGN_IN_UNKNOWN_TTL_HOURS * 3_600_000);

/** The failures counted for `digest` (0 when none or expired). */
export async function unknownFailures(prisma: PrismaClient, cfg: Cfg, digest: string): Promise<number> {
  const row = await prisma.unknownSignInFailure.findUnique({ where: { digest } });
  return row && row.lastFailedAt >= cutoff(cfg) ? row.failures : 0;
}

/**
 * Counts one more failure of `digest` (an expired count starts again at 1) and returns the new count. When
 * the count starts (a new name), expired rows and rows beyond the cap (least recently failed first) go.
 */
export async function recordUnknownFailure(prisma: PrismaClient, cfg: Cfg, digest: string): Promise<number> {
  const now = new Date();
  await prisma.unknownSignInFailure.deleteMany({ where: { digest, lastFailedAt: { lt: cutoff(cfg, now.getTime()) } } });
  // An atomic increment, so concurrent failures of the same name never lose a count.
  const row = await prisma.unknownSignInFailure.upsert({
    where: { digest },
    create: { digest, failures: 1, lastFailedAt: now },
    update: { failures: { increment: 1 }, lastFailedAt: now },
  });
  if (row.failures === 1) await pruneUnknownFailures(prisma, cfg, now);
  return row.failures;
}

/** Removes expired rows and those beyond SIGN_IN_UNKNOWN_MAX_NAMES (least recently failed first). */
export async function pruneUnknownFailures(prisma: PrismaClient, cfg: Cfg, now = new Date()): Promise<void> {
  await prisma.unknownSignInFailure.deleteMany({ where: { lastFailedAt: { lt: cutoff(cfg, now.getTime()) } } });
  const beyond = await prisma.unknownSignInFailure.findMany({
    orderBy: [{ lastFailedAt: 'desc' }, { digest: 'asc' }],
    skip: cfg.SIGN_IN_UNKNOWN_MAX_NAMES,
    take: 1000,
    select: { digest: true },
  });
  if (beyond.length) {
    await prisma.unknownSignInFailure.deleteMany({ where: { digest: { in: beyond.map((b) => b.digest) } } });
  }
}

/**
 * Drops the count of a name the directory knows (it may have been unknown before it was registered): the
 * directory's own count is the one that holds, and the write keeps the known path's work like the unknown's.
 */
export async function forgetUnknownFailures(prisma: PrismaClient, digest: string): Promise<void> {
  await prisma.unknownSignInFailure.deleteMany({ where: { digest } });
}

/**
 * Server-side sessions (000 §3 Authentication state, §4 Session timeout). The cookie carries a random token;
 * the table keeps only its SHA-256 digest, the XSRF token and the sliding expiry.
 */
import crypto from 'node:crypto';
import { z } from 'zod';
import { PERMISSIONS } from '@portal/contract';
import { Prisma, type PrismaClient } from '@portal/db';
import { queryRows } from '../shared/sql';
import { type CachedSession, forgetSessions, type LiveSession, sessionCacheOf } from './session-cache';

export const digest = (token: string): string => crypto.createHash('sha256').update(token).digest('hex');
const randomToken = (): string => crypto.randomBytes(32).toString('base64url');

/**
 * Creates a session for a user; `passwordChangeRequired` (000 §4 FORCE_CHANGE) limits it to changing the
 * password, `secondFactorDueBy` (issue 37) to the sign-in's second step until then (which comes first), and
 * `secondFactorEnrolmentDue` (issue 37) to enrolling a second factor (which comes last); `amr` says how the
 * person signed in (RFC 8176: ['pwd'], or ['hwk'] / ['swk'] for a passkey sign-in, docs/decisions.md "Passkeys").
 * @returns the cookie token and the XSRF token (shown once).
 */
export async function createSession(
  prisma: PrismaClient,
  portalUserId: number,
  timeoutSeconds: number,
  passwordChangeRequired = false,
  secondFactorDueBy: Date | null = null,
  secondFactorEnrolmentDue = false,
  amr: string[] = ['pwd'],
): Promise<{ token: string; xsrfToken: string }> {
  const token = randomToken();
  const xsrfToken = randomToken();
  await prisma.session.create({
    data: {
      id: digest(token),
      portalUserId,
      xsrfToken,
      passwordChangeRequired,
      secondFactorDueBy,
      secondFactorEnrolmentDue,
      amr,
      expiresAt: new Date(Date.now() + timeoutSeconds * 1000),
    },
  });
  return { token, xsrfToken };
}

/** The session row, its user and the permissions of the user's active portal roles, as PostgreSQL answers. */
const LiveSessionRowSchema = z.object({
  xsrfToken: z.string(),
  lastSeen: z.date(),
  expiresAt: z.date(),
  passwordChangeRequired: z.boolean(),
  secondFactorDueBy: z.date().nullable(),
  secondFactorEnrolmentDue: z.boolean(),
  authenticatedAt: z.date(),
  amr: z.array(z.string()).nullable(),
  id: z.number().int(),
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  inactive: z.boolean(),
  permissions: z.array(z.enum(PERMISSIONS)),
});

/**
 * Finds a live session by cookie token, with its user and the permissions of the user's active portal roles,
 * and slides its expiry. The look-up is one SQL statement on the hot-read pool (shared/sql.ts, rows parsed
 * with zod), kept in `prisma`'s session cache when it has one (session-cache.ts: entries leave it on
 * PostgreSQL's `session_changed` notifications, so sign-out, a password change, deactivation and role
 * changes still end or narrow the session at once). The expiry write is skipped while the last one is
 * younger than a tenth of the timeout (at most 5 s), so a page's burst of calls costs one write; the expiry
 * is then at most that much early. A cached session whose expiry write finds no row is gone.
 * @returns null when the session is missing or expired.
 */
export async function touchSession(
  prisma: PrismaClient,
  token: string,
  timeoutSeconds: number,
): Promise<LiveSession | null> {
  const id = digest(token);
  const now = new Date();
  const cache = sessionCacheOf(prisma);
  const cached = cache?.get(id, now.getTime());
  const mark = cache?.mark ?? 0;
  let found: CachedSession | undefined = cached;
  if (!found) {
    const rows = await queryRows(prisma, liveSessionSql(id));
    const row = z.array(LiveSessionRowSchema).max(1).parse(rows)[0];
    found = row && { session: liveSessionOf(row), lastSeen: row.lastSeen, expiresAt: row.expiresAt };
  }
  if (!found || found.expiresAt <= now) {
    if (cached) cache?.apply({ session: id });
    return null;
  }
  const throttleMs = Math.min(5_000, timeoutSeconds * 100);
  if (now.getTime() - found.lastSeen.getTime() >= throttleMs) {
    const expiresAt = new Date(now.getTime() + timeoutSeconds * 1000);
    const touched =
      await prisma.$executeRaw`UPDATE "Session" SET "lastSeen" = ${now}, "expiresAt" = ${expiresAt} WHERE "id" = ${id}`;
    if (touched === 0) {
      cache?.apply({ session: id });
      return null;
    }
    found = { ...found, lastSeen: now, expiresAt };
  }
  cache?.set(id, found, mark, now.getTime());
  return found.session;
}

/** The look-up statement of session `id` (a digest). */
const liveSessionSql = (id: string): Prisma.Sql => Prisma.sql`
    SELECT s."xsrfToken", s."lastSeen", s."expiresAt", s."passwordChangeRequired", s."secondFactorDueBy", s."secondFactorEnrolmentDue",
      s."authenticatedAt", s."amr",
      u."id", u."username", u."firstName", u."lastName", u."email", u."inactive",
      COALESCE((SELECT array_agg(p::text) FROM "PortalUserRole" ur
          JOIN "PortalRole" r ON r."id" = ur."portalRoleId" CROSS JOIN LATERAL unnest(r."permissions") p
          WHERE ur."portalUserId" = u."id" AND NOT r."inactive"), '{}') AS "permissions"
    FROM "Session" s JOIN "PortalUser" u ON u."id" = s."portalUserId"
    WHERE s."id" = ${id}`;

const liveSessionOf = (row: z.infer<typeof LiveSessionRowSchema>): LiveSession => ({
  xsrfToken: row.xsrfToken,
  passwordChangeRequired: row.passwordChangeRequired,
  secondFactorDueBy: row.secondFactorDueBy,
  secondFactorEnrolmentDue: row.secondFactorEnrolmentDue,
  authenticatedAt: row.authenticatedAt,
  amr: row.amr ?? ['pwd'],
  user: {
    id: row.id,
    username: row.username,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    inactive: row.inactive,
    portalRoles: [{ role: { inactive: false, permissions: row.permissions } }],
  },
});

/**
 * The sign-in's second step (or a step-up) was taken (issue 37): session `token` is no longer limited to it,
 * and it records the method beside the session's `amr` so far (RFC 8176 `otp` for a one-time code, a
 * recovery code being one too; `hwk` / `swk` for a passkey, docs/decisions.md "Passkeys").
 */
export async function afterSecondStep(
  prisma: PrismaClient,
  token: string,
  amr: readonly string[],
  method: 'otp' | 'hwk' | 'swk' = 'otp',
): Promise<void> {
  await prisma.session.updateMany({
    where: { id: digest(token) },
    data: { secondFactorDueBy: null, amr: [...new Set([...amr, method])] },
  });
  forgetSessions(prisma, { session: digest(token) });
}

/**
 * A second factor now signs `portalUserId` in (issue 37): no session of theirs is limited to enrolling one
 * any more.
 */
export async function afterFirstFactor(prisma: PrismaClient, portalUserId: number): Promise<void> {
  await prisma.session.updateMany({
    where: { portalUserId, secondFactorEnrolmentDue: true },
    data: { secondFactorEnrolmentDue: false },
  });
  forgetSessions(prisma, { user: portalUserId });
}

/** Deletes a session (sign-out) and, opportunistically, expired ones. */
export async function invalidateSession(prisma: PrismaClient, token: string): Promise<void> {
  await prisma.session.deleteMany({ where: { OR: [{ id: digest(token) }, { expiresAt: { lt: new Date() } }] } });
  forgetSessions(prisma, { session: digest(token) });
}

/**
 * After the user's own password change (000 §4 After a password change): the current session is no longer
 * limited, and every other session of the user ends.
 */
export async function afterOwnPasswordChange(prisma: PrismaClient, token: string, portalUserId: number): Promise<void> {
  const id = digest(token);
  await prisma.$transaction([
    prisma.session.updateMany({ where: { id }, data: { passwordChangeRequired: false } }),
    prisma.session.deleteMany({ where: { portalUserId, NOT: { id } } }),
  ]);
  forgetSessions(prisma, { user: portalUserId });
}

/** Ends every session of a user (after a password is set through an emailed link). */
export async function invalidateUserSessions(prisma: PrismaClient, portalUserId: number): Promise<void> {
  await prisma.session.deleteMany({ where: { portalUserId } });
  forgetSessions(prisma, { user: portalUserId });
}

/** Constant-time comparison of two tokens. */
export function tokensEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

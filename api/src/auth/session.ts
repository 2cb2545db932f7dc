/**
 * Server-side sessions (000 §3 Authentication state, §4 Session timeout). The cookie carries a random token;
 * the table keeps only its SHA-256 digest, the XSRF token and the sliding expiry.
 */
import crypto from 'node:crypto';
import type { PrismaClient } from '@portal/db';

export const digest = (token: string): string => crypto.createHash('sha256').update(token).digest('hex');
const randomToken = (): string => crypto.randomBytes(32).toString('base64url');

/**
 * Creates a session for a user; `passwordChangeRequired` (000 §4 FORCE_CHANGE) limits it to changing the
 * password. @returns the cookie token and the XSRF token (shown once).
 */
export async function createSession(
  prisma: PrismaClient,
  portalUserId: number,
  timeoutSeconds: number,
  passwordChangeRequired = false,
): Promise<{ token: string; xsrfToken: string }> {
  const token = randomToken();
  const xsrfToken = randomToken();
  await prisma.session.create({
    data: {
      id: digest(token),
      portalUserId,
      xsrfToken,
      passwordChangeRequired,
      expiresAt: new Date(Date.now() + timeoutSeconds * 1000),
    },
  });
  return { token, xsrfToken };
}

/**
 * Finds a live session by cookie token, with its user and the user's portal roles (one query), and slides
 * its expiry. The write is skipped while the last one is younger than a tenth of the timeout (at most 5 s),
 * so a page's burst of calls costs one write; the expiry is then at most that much early.
 * @returns null when the session is missing or expired.
 */
export async function touchSession(prisma: PrismaClient, token: string, timeoutSeconds: number) {
  const id = digest(token);
  const now = new Date();
  const session = await prisma.session.findUnique({
    where: { id },
    include: { user: { include: { portalRoles: { include: { role: true } } } } },
  });
  if (!session || session.expiresAt <= now) return null;
  const throttleMs = Math.min(5_000, timeoutSeconds * 100);
  if (now.getTime() - session.lastSeen.getTime() >= throttleMs) {
    await prisma.session.update({
      where: { id },
      data: { lastSeen: now, expiresAt: new Date(now.getTime() + timeoutSeconds * 1000) },
    });
  }
  return session;
}

/** Deletes a session (sign-out) and, opportunistically, expired ones. */
export async function invalidateSession(prisma: PrismaClient, token: string): Promise<void> {
  await prisma.session.deleteMany({ where: { OR: [{ id: digest(token) }, { expiresAt: { lt: new Date() } }] } });
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
}

/** Ends every session of a user (after a password is set through an emailed link). */
export async function invalidateUserSessions(prisma: PrismaClient, portalUserId: number): Promise<void> {
  await prisma.session.deleteMany({ where: { portalUserId } });
}

/** Constant-time comparison of two tokens. */
export function tokensEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/**
 * Set-initial and reset links (000 §2 Set Password, §5 Reset, §7 set_initial_password / reset_password):
 * the hash is 32 random bytes (base64url) that only the mail carries; the database keeps its SHA-256 digest.
 * A link is single-use (usedAt), expires, and a newer link of the same kind revokes the older ones. Minting is
 * shared with the worker (@portal/db password-links).
 */
import { type LinkPurpose, type PrismaClient, issuePasswordLink } from '@portal/db';
import { digest } from '../../auth/session';

export type { LinkPurpose };
/** Minting lives in @portal/db: the worker mints set-initial links too (a registration's approval mail). */
export { issuePasswordLink };

/** The live link for `hash` (unused, unexpired, of `purpose`, for an active user), or null. */
export async function findLiveLink(prisma: PrismaClient, hash: string, purpose: LinkPurpose) {
  const link = await prisma.passwordLink.findUnique({ where: { digest: digest(hash) }, include: { user: true } });
  if (!link || link.purpose !== purpose || link.usedAt || link.expiresAt <= new Date() || link.user.inactive) {
    return null;
  }
  return link;
}

/** Marks a link used, atomically. @returns false when it was used or expired meanwhile. */
export async function consumeLink(prisma: PrismaClient, id: number): Promise<boolean> {
  const { count } = await prisma.passwordLink.updateMany({
    where: { id, usedAt: null, expiresAt: { gt: new Date() } },
    data: { usedAt: new Date() },
  });
  return count === 1;
}

/** Gives a consumed link back when the directory write behind it failed (the user may try again). */
export async function releaseLink(prisma: PrismaClient, id: number): Promise<void> {
  await prisma.passwordLink.updateMany({ where: { id }, data: { usedAt: null } });
}

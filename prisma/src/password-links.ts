/**
 * Minting set-initial and reset password links (000 §2 Set Password, §5 Reset), shared by the API (Forgot
 * Password, resend) and the worker (a registration's approval mail, REQUEST-LIFECYCLE rule 5): the link's
 * hash is 32 random bytes (base64url) that only the mail carries; the table keeps its SHA-256 digest. A new
 * link of one purpose revokes the user's older unused ones of that purpose.
 */
import crypto from 'node:crypto';
import type { Prisma, PrismaClient } from '../generated/client/client';

export type LinkPurpose = 'SET_INITIAL' | 'RESET';

/** SHA-256 (hex) of a link's hash: what the PasswordLink table stores. */
export const linkDigest = (hash: string): string => crypto.createHash('sha256').update(hash).digest('hex');

/** The browser route of a link (000 §2: route shape not shown; docs/decisions.md). */
export function passwordLinkUrl(portalUrl: string, purpose: LinkPurpose, hash: string): string {
  const route = purpose === 'SET_INITIAL' ? 'set-initial-password' : 'reset-password';
  return `${portalUrl.replace(/\/+$/, '')}/${route}/${hash}`;
}

/** Default lifetime of a set-initial-password link (the API's INITIAL_LINK_TTL_HOURS default). */
export const INITIAL_LINK_TTL_SECONDS = 168 * 3600;

export interface MintedLink {
  id: number;
  /** Goes into the mail only; never stored, logged or passed through workflow history. */
  hash: string;
  expiresAt: Date;
}

/** Inside `tx`: revokes the user's unused links of `purpose` and creates a new one. */
export async function mintPasswordLink(
  tx: Prisma.TransactionClient,
  portalUserId: number,
  purpose: LinkPurpose,
  ttlSeconds: number,
): Promise<MintedLink> {
  const hash = crypto.randomBytes(32).toString('base64url');
  const now = new Date();
  const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
  await tx.passwordLink.updateMany({ where: { portalUserId, purpose, usedAt: null }, data: { usedAt: now } });
  const link = await tx.passwordLink.create({ data: { digest: linkDigest(hash), portalUserId, purpose, expiresAt } });
  return { id: link.id, hash, expiresAt };
}

/** Issues a link for a user in its own transaction. @returns the hash to put in the mail (never stored). */
export async function issuePasswordLink(
  prisma: PrismaClient,
  portalUserId: number,
  purpose: LinkPurpose,
  ttlSeconds: number,
): Promise<MintedLink> {
  return prisma.$transaction((tx) => mintPasswordLink(tx, portalUserId, purpose, ttlSeconds));
}

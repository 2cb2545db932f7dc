/**
 * Minting set-initial and reset password links (000 §2 Set Password, §5 Reset), shared by the API (Forgot
 * Password, resend) and the worker (a registration's approval mail, REQUEST-LIFECYCLE rule 5): the link's
 * hash is 32 random bytes (base64url) that only the mail carries; the table keeps its SHA-256 digest. A new
 * link of one purpose revokes the user's older unused ones of that purpose. A link the worker's outbox mails
 * has a hash derived from its outbox row instead (`ensurePasswordLink`), so each attempt of that one mail
 * finds the same link rather than minting a new one (issue 21 case 6).
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

/** A link to create: whose, what for, how long it lives and its hash (never stored, only its digest). */
export interface NewLink {
  portalUserId: number;
  purpose: LinkPurpose;
  ttlSeconds: number;
  hash: string;
}

/** Inside `tx`: revokes the user's unused links of `purpose` and creates the one whose hash is `hash`. */
async function createLink(
  tx: Prisma.TransactionClient,
  { portalUserId, purpose, ttlSeconds, hash }: NewLink,
): Promise<MintedLink> {
  const now = new Date();
  const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
  await tx.passwordLink.updateMany({ where: { portalUserId, purpose, usedAt: null }, data: { usedAt: now } });
  const link = await tx.passwordLink.create({ data: { digest: linkDigest(hash), portalUserId, purpose, expiresAt } });
  return { id: link.id, hash, expiresAt };
}

/** Inside `tx`: revokes the user's unused links of `purpose` and creates a new one with a random hash. */
export async function mintPasswordLink(
  tx: Prisma.TransactionClient,
  portalUserId: number,
  purpose: LinkPurpose,
  ttlSeconds: number,
): Promise<MintedLink> {
  return createLink(tx, { portalUserId, purpose, ttlSeconds, hash: crypto.randomBytes(32).toString('base64url') });
}

/**
 * Inside `tx`: the link whose hash is `link.hash` (a secret derived from an outbox row, never stored),
 * created as `mintPasswordLink` creates one (revoking the older) when no attempt created it yet. An existing
 * link is returned as it is, with its expiry, also when it was used or revoked since: a re-sent mail repeats
 * what the first one said and never revokes the link it delivered (issue 21 case 6).
 * @throws Error when the hash's link belongs to another user or purpose (never, short of a key reused
 *   across databases).
 */
export async function ensurePasswordLink(tx: Prisma.TransactionClient, link: NewLink): Promise<MintedLink> {
  const found = await tx.passwordLink.findUnique({ where: { digest: linkDigest(link.hash) } });
  if (!found) return createLink(tx, link);
  if (found.portalUserId !== link.portalUserId || found.purpose !== link.purpose) {
    throw new Error(`password link ${found.id} was derived for another user or purpose`);
  }
  return { id: found.id, hash: link.hash, expiresAt: found.expiresAt };
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

/**
 * The one writer of electronic signatures (docs/decisions.md "Electronic signatures"; 21 CFR Part 11 §11.50,
 * §11.70). Every signed decision, wherever it is written (the worker's commit activity, the API's user-detail,
 * review-decision and campaign-close transactions), calls `takeSignatureTicket` before its effects and
 * `writeSignature` after them, both with the decision's own transaction: the ticket is used at most once, and
 * a decision that rolls back leaves its ticket unused and no signature.
 */
import { createHash } from 'node:crypto';
import { stringify } from 'safe-stable-stringify';
import type { SignatureAction, SignatureMethod, SignedDecision } from '@portal/contract';
import type { Prisma } from '../../generated/client/client';
import { recordAudit } from '../audit-trail/write';

type Tx = Pick<Prisma.TransactionClient, 'signatureTicket' | 'signature' | 'portalUser' | 'auditEvent'>;

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** SHA-256 (hex) of a value's canonical JSON (keys sorted, undefined dropped). */
export const canonicalDigest = (value: unknown): string => sha256(stringify(value) ?? 'null');

/**
 * The digest a ticket is bound to: the action and the call about to be sent (method, path without its query,
 * body). The signed route computes it again from the call it receives; any other body, path or action differs.
 */
export const decisionDigest = (action: SignatureAction, decision: SignedDecision): string =>
  canonicalDigest({ action, method: decision.method.toUpperCase(), path: decision.path, body: decision.body ?? null });

/** SHA-256 (hex) of a ticket as the browser holds it: only this is stored. */
export const ticketHash = (ticket: string): string => sha256(ticket);

/** A ticket taken for a decision: who signs, meaning what, how. */
export interface TakenTicket {
  id: string;
  signerUserId: number;
  action: SignatureAction;
  meaning: string;
  method: SignatureMethod;
}

/**
 * Takes ticket `ticketId` (sets usedAt) unless it is used, expired, or not `signerUserId`'s. @returns the
 * ticket, or null when it cannot be taken (the caller refuses the decision with SIGNATURE_ERRORS.invalid and
 * writes nothing).
 */
export async function takeSignatureTicket(tx: Tx, ticketId: string, signerUserId: number): Promise<TakenTicket | null> {
  const now = new Date();
  const taken = await tx.signatureTicket.updateMany({
    where: { id: ticketId, signerUserId, usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  if (taken.count !== 1) return null;
  const t = await tx.signatureTicket.findUniqueOrThrow({ where: { id: ticketId } });
  return {
    id: t.id,
    signerUserId: t.signerUserId,
    action: t.action as SignatureAction,
    meaning: t.meaning,
    method: t.method as SignatureMethod,
  };
}

/** What a decision's signature is linked to (§11.70): the record and the canonical content signed. */
export interface SignedRecord {
  entityType: string;
  entityId: string | number;
  entityVersion?: number | null;
  /** The decision's canonical content (see `signatures/content.ts`), stored and digested. */
  content: unknown;
}

/**
 * Writes the Signature of `ticket` for `record`, with the signer's printed name at this moment, and its
 * SIGNATURE audit row (sealed like every audit row; no secret in it). @returns the signature's id and time.
 */
export async function writeSignature(
  tx: Tx,
  ticket: TakenTicket,
  record: SignedRecord,
): Promise<{ id: bigint; signedAt: Date; digest: string }> {
  const signer = await tx.portalUser.findUniqueOrThrow({
    where: { id: ticket.signerUserId },
    select: { username: true, firstName: true, lastName: true },
  });
  const content = JSON.parse(stringify(record.content) ?? 'null') as Prisma.InputJsonValue;
  const digest = canonicalDigest(content);
  const row = await tx.signature.create({
    data: {
      ticketId: ticket.id,
      signerUserId: ticket.signerUserId,
      signerUsername: signer.username,
      signerName: `${signer.firstName} ${signer.lastName}`.trim(),
      action: ticket.action,
      meaning: ticket.meaning,
      method: ticket.method,
      entityType: record.entityType,
      entityId: String(record.entityId),
      entityVersion: record.entityVersion ?? null,
      content,
      digest,
    },
  });
  await recordAudit(
    tx,
    { userId: ticket.signerUserId, username: signer.username },
    {
      entityType: record.entityType,
      entityId: record.entityId,
      action: 'SIGNATURE',
      after: {
        signatureId: row.id.toString(),
        signerName: row.signerName,
        meaning: row.meaning,
        method: row.method,
        action: row.action,
        entityVersion: row.entityVersion,
        digest,
      },
    },
  );
  return { id: row.id, signedAt: row.signedAt, digest };
}

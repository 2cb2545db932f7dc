/**
 * Verifying a signature (§11.70, docs/decisions.md "Electronic signatures"): the stored content must still hash
 * to the stored digest, and the content recomputed from the record as it is stored now (where the record is
 * still at the signed version) must equal it. An edit of either afterwards shows 'does not match the record'.
 */
import type { SignatureAction, SignatureMethod, SignatureView } from '@portal/contract';
import type { Signature } from '../../generated/client/client';
import { canonicalDigest } from './write';

/**
 * Whether `row` matches its record. `recomputed`: the content rebuilt from the stored record (by the same
 * builder the writer used), or undefined when the record has moved past the signed version (nothing of it
 * left to compare but the signed content itself).
 */
export function signatureMatches(row: Pick<Signature, 'content' | 'digest'>, recomputed?: unknown): boolean {
  if (canonicalDigest(row.content) !== row.digest) return false;
  return recomputed === undefined || canonicalDigest(recomputed) === row.digest;
}

/** The signature as the screens and the report show it. `items`: what a bulk decision's signature names. */
export function signatureView(row: Signature, valid: boolean, items?: string[]): SignatureView {
  return {
    id: row.id.toString(),
    signerName: row.signerName,
    signerUsername: row.signerUsername,
    signedAt: row.signedAt.toISOString(),
    meaning: row.meaning,
    method: row.method as SignatureMethod,
    action: row.action as SignatureAction,
    valid,
    ...(items ? { items } : {}),
  };
}

/**
 * The one canonical form of the audit trail's rows and seals (docs/decisions.md "A tamper-evident audit
 * trail"), shared by the sealer (seal.ts) and the verifier (verify.ts) so the two can never disagree:
 * - a row's digest is SHA-256 over the UTF-8 text of a JSON array of its stored columns, built by PostgreSQL
 *   (`ROW_DIGEST_SQL`; jsonb's text form is canonical: key order, spacing and numbers are normalised), the
 *   generated `searchText` excluded;
 * - a seal's hash is SHA-256 over its header (`sealHeader`) and the digests of the rows it covers in id order;
 *   its signature is Ed25519 over that hash.
 * `SEAL_FORMAT` names this form: a later change of either part is a new format, and seals keep theirs.
 */
import crypto from 'node:crypto';

export const SEAL_FORMAT = 1;

/** The previous hash of the first seal. */
export const GENESIS_HASH = '0'.repeat(64);

/** Bytes of each row's digest a seal keeps (`rowDigests`), enough to name the row that changed. */
export const STORED_DIGEST_BYTES = 8;

/**
 * SQL (table alias `e` of "AuditEvent") for the row's digest (bytea, 32 bytes). `at` is a timestamp without
 * zone in UTC, written with its microseconds so no stored precision is lost.
 */
export const ROW_DIGEST_SQL = `sha256(convert_to(jsonb_build_array(
  e."id"::text, to_char(e."at", 'YYYY-MM-DD"T"HH24:MI:SS.US'), e."actorUserId", e."actorUsername",
  e."entityType", e."entityId", e."action", e."before", e."after", e."workflowId", e."idempotencyKey",
  e."idempotencyDigest")::text, 'UTF8'))`;

/** Inclusive id ranges, ascending and disjoint: `[[from, to], ...]` (ids as decimal strings: they are bigint). */
export type IdRanges = [string, string][];
/** Ids below a seal's `maxId` not yet seen: `[[from, to, firstSeenAtMs], ...]`. */
export type PendingGaps = [string, string, number][];

/** What a seal's hash covers besides its rows' digests. */
export interface SealHeader {
  format: number;
  id: string;
  prevHash: string;
  sealedAt: string;
  ranges: IdRanges;
  rowCount: number;
  maxId: string;
  /** Whether the step took every row it saw (it did not stop at its most rows). */
  complete: boolean;
  firstAt: string | null;
  lastAt: string | null;
  pendingGaps: PendingGaps;
  keyId: string;
}

/** The header's canonical bytes: a JSON array in a fixed order. */
export const sealHeader = (h: SealHeader): Buffer =>
  Buffer.from(
    JSON.stringify([
      'portal-audit-seal',
      h.format,
      h.id,
      h.prevHash,
      h.sealedAt,
      h.ranges,
      h.rowCount,
      h.maxId,
      h.complete,
      h.firstAt,
      h.lastAt,
      h.pendingGaps,
      h.keyId,
    ]),
    'utf8',
  );

/** A seal's hash being computed: the header first, then each row's 32-byte digest in id order. */
export function sealHasher(header: SealHeader): { add(digest: Buffer): void; hex(): string } {
  const hash = crypto.createHash('sha256');
  const bytes = sealHeader(header);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  hash.update(length).update(bytes);
  return {
    add: (digest) => void hash.update(digest),
    hex: () => hash.digest('hex'),
  };
}

/**
 * The audit trail's sealer (docs/decisions.md "A tamper-evident audit trail"): one step seals the rows
 * committed since the newest seal, at most `maxRows` of them, as the next seal of the chain. It only reads
 * "AuditEvent" (writers are never serialised or slowed) and writes one "AuditSeal" row under the sealer's
 * advisory lock, so two workers never seal a row twice (the unique `prevHash` backs the lock: a chain has no
 * forks). Ids are not in commit order: ids above the newest sealed one that are not visible yet are carried as
 * pending gaps, and a transaction committing one of them later has its row sealed by the next step; a gap
 * first seen more than `gapHorizonMs` ago is dropped (a rolled-back id, or a row the verifier will name as
 * inserted outside any seal).
 */
import type pg from 'pg';
import { LOCK_NAMESPACES } from '../locks';
import {
  GENESIS_HASH,
  type IdRanges,
  type PendingGaps,
  ROW_DIGEST_SQL,
  SEAL_FORMAT,
  STORED_DIGEST_BYTES,
  type SealHeader,
  sealHasher,
} from './canonical';
import { type SealSigningKey, signSealHash } from './keys';
import { gapsBetween, subtractIds, toRanges } from './ranges';

export interface SealStepOptions {
  key: SealSigningKey;
  /** Rows per seal at most; a step that reaches it says `more`. */
  maxRows: number;
  /** How long (ms) an id not yet visible is waited for (twice the longest write transaction's timeout). */
  gapHorizonMs: number;
}

export interface SealRef {
  id: string;
  hash: string;
}

export interface SealStepResult {
  /** The seal this step wrote, or null when there was nothing to seal. */
  sealed: (SealRef & { rows: number }) | null;
  /** The newest seal after this step (what the workflow's result witnesses outside PostgreSQL). */
  newest: SealRef | null;
  /** Whether rows beyond this seal's `maxRows` are waiting. */
  more: boolean;
}

const ISO_MS = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

interface NewestRow {
  id: string;
  hash: string;
  maxId: string;
  pendingGaps: PendingGaps;
}
interface CandidateRow {
  id: string;
  at: string;
  digest: Buffer;
}

/**
 * Seals the next rows (see the module). Runs its own transaction on `client` (a connection no one else uses
 * meanwhile).
 * @throws whatever PostgreSQL answers (the transaction is rolled back first); a unique violation on `prevHash`
 *   means another sealer extended the chain first, and the next step goes on from there.
 */
export async function sealNextRows(client: pg.ClientBase, opts: SealStepOptions): Promise<SealStepResult> {
  // READ COMMITTED, whatever the database's default: each statement after the lock sees what the sealer
  // before it committed (a snapshot taken before the lock was granted would extend a seal already extended).
  await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
  try {
    await client.query(`SELECT pg_advisory_xact_lock(${LOCK_NAMESPACES.AUDIT_SEAL}, 0)`);
    const clock = await client.query<{ now: string; ms: string }>(
      `SELECT to_char(c AT TIME ZONE 'UTC', ${ISO_MS}) AS now, (extract(epoch FROM c) * 1000)::bigint::text AS ms
         FROM clock_timestamp() AS c`,
    );
    const sealedAt = clock.rows[0]!.now;
    const nowMs = Number(clock.rows[0]!.ms);
    const newestRows = await client.query<NewestRow>(
      // Ordered by the column, not by the text alias of the same name ('9' sorts after '10').
      `SELECT "id"::text AS id, "hash", "maxId"::text AS "maxId", "pendingGaps" FROM "AuditSeal" s ORDER BY s."id" DESC LIMIT 1`,
    );
    const newest = newestRows.rows[0];
    const sealedUpTo = BigInt(newest?.maxId ?? 0);
    const pending = newest?.pendingGaps ?? [];
    const candidates = await client.query<CandidateRow>(
      `WITH picked AS (
         (SELECT e."id" FROM "AuditEvent" e
            JOIN unnest($2::bigint[], $3::bigint[]) AS g(f, t) ON e."id" BETWEEN g.f AND g.t)
         UNION ALL
         (SELECT e."id" FROM "AuditEvent" e WHERE e."id" > $1::bigint ORDER BY e."id" LIMIT $4)
       )
       SELECT e."id"::text AS id, to_char(e."at", ${ISO_MS}) AS at, ${ROW_DIGEST_SQL} AS digest
         FROM (SELECT "id" FROM picked ORDER BY "id" LIMIT $4) p JOIN "AuditEvent" e ON e."id" = p."id"
        ORDER BY e."id"`,
      [String(sealedUpTo), pending.map((g) => g[0]), pending.map((g) => g[1]), opts.maxRows],
    );
    const rows = candidates.rows;
    if (!rows.length) {
      await client.query('ROLLBACK');
      return { sealed: null, newest: newest ? { id: newest.id, hash: newest.hash } : null, more: false };
    }
    const ids = rows.map((r) => BigInt(r.id));
    const above = ids.filter((id) => id > sealedUpTo);
    const maxId = above.length ? above[above.length - 1]! : sealedUpTo;
    const pendingGaps: PendingGaps = [
      ...subtractIds(pending, ids).filter((g) => nowMs - g[2] <= opts.gapHorizonMs),
      ...gapsBetween(sealedUpTo, maxId, above).map(([f, t]): [string, string, number] => [String(f), String(t), nowMs]),
    ];
    const ats = rows.map((r) => r.at).sort();
    const header: SealHeader = {
      format: SEAL_FORMAT,
      id: String(BigInt(newest?.id ?? 0) + 1n),
      prevHash: newest?.hash ?? GENESIS_HASH,
      sealedAt,
      ranges: toRanges(ids) satisfies IdRanges,
      rowCount: rows.length,
      maxId: String(maxId),
      complete: rows.length < opts.maxRows,
      firstAt: ats[0]!,
      lastAt: ats[ats.length - 1]!,
      pendingGaps,
      keyId: opts.key.keyId,
    };
    const hasher = sealHasher(header);
    for (const r of rows) hasher.add(r.digest);
    const hash = hasher.hex();
    await client.query(
      `INSERT INTO "AuditSeal" ("id", "sealedAt", "format", "ranges", "rowCount", "maxId", "firstAt", "lastAt",
         "rowDigests", "pendingGaps", "prevHash", "hash", "keyId", "signature", "complete")
       VALUES ($1::bigint, $2::timestamptz, $3, $4::jsonb, $5, $6::bigint, $7::timestamptz, $8::timestamptz, $9,
         $10::jsonb, $11, $12, $13, $14, $15)`,
      [
        header.id,
        header.sealedAt,
        header.format,
        JSON.stringify(header.ranges),
        header.rowCount,
        header.maxId,
        header.firstAt,
        header.lastAt,
        Buffer.concat(rows.map((r) => r.digest.subarray(0, STORED_DIGEST_BYTES))),
        JSON.stringify(header.pendingGaps),
        header.prevHash,
        hash,
        header.keyId,
        signSealHash(opts.key, hash),
        header.complete,
      ],
    );
    await client.query('COMMIT');
    return {
      sealed: { id: header.id, hash, rows: rows.length },
      newest: { id: header.id, hash },
      more: !header.complete,
    };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

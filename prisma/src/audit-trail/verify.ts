/**
 * The audit trail's verifier (docs/decisions.md "A tamper-evident audit trail"): recomputes every seal from
 * the rows it covers and names what does not agree, with the row and the time window affected:
 * - `ROW_CHANGED`: a row whose digest is not the one its seal recorded (an UPDATE behind the triggers);
 * - `ROW_MISSING`: ids a seal covers that are gone (a DELETE or TRUNCATE behind the triggers);
 * - `ROW_OUTSIDE_SEALS`: a row no seal covers though the sealer passed its id (inserted with a chosen id);
 * - `ROW_INSERTED_LATE`: a row whose `at` is earlier than the previous seal's time by more than `lateAfterMs`
 *   while that seal took every row it saw (an INSERT with an old timestamp: its transaction would have been
 *   open longer than any allowed; a sealer catching up after an outage seals old rows, but in full seals);
 * - `SEAL_ALTERED`: a seal whose signature, hash, chain link or stored digests do not hold;
 * - `SEAL_MISSING`: a gap in the seals' numbering;
 * - `SEALS_CUT_OFF`: the newest seal Temporal's history witnessed is missing or differs here (the newest rows
 *   and seals cut off together).
 * Rows newer than the newest seal are counted as awaiting their seal, not as findings. Reads the rows in id
 * order through one cursor in a REPEATABLE READ READ ONLY snapshot, so memory holds the seals, not the rows.
 */
import type crypto from 'node:crypto';
import type pg from 'pg';
import {
  GENESIS_HASH,
  type IdRanges,
  type PendingGaps,
  ROW_DIGEST_SQL,
  STORED_DIGEST_BYTES,
  type SealHeader,
  sealHasher,
} from './canonical';
import { sealSignatureValid } from './keys';
import type { SealRef } from './seal';

export type AuditFindingKind =
  | 'ROW_CHANGED'
  | 'ROW_MISSING'
  | 'ROW_OUTSIDE_SEALS'
  | 'ROW_INSERTED_LATE'
  | 'SEAL_ALTERED'
  | 'SEAL_MISSING'
  | 'SEALS_CUT_OFF';

export interface AuditFinding {
  kind: AuditFindingKind;
  /** The row (or the first of a range of missing rows), null for a seal's finding. */
  rowId: string | null;
  /** The last id of a range of missing rows. */
  toRowId?: string;
  sealId: string | null;
  /** The time window affected (ISO instants; null: open). */
  from: string | null;
  to: string | null;
  detail: string;
}

export interface AuditVerifyOptions {
  /** The verifying keys by key id (keys.ts sealPublicKeys). */
  publicKeys: Map<string, crypto.KeyObject>;
  lateAfterMs: number;
  /** The newest seal Temporal's history holds (the seal workflow's last result), when known. */
  witness?: SealRef | null;
  /** Findings kept in the answer (the first ones in id order); all are counted. Default 100. */
  maxFindings?: number;
}

export interface AuditVerification {
  ok: boolean;
  rows: number;
  seals: number;
  /** Rows newer than the newest seal: not sealed yet. */
  awaitingSeal: number;
  findings: AuditFinding[];
  findingsTotal: number;
  newestSeal: SealRef | null;
  /** The seal Temporal's history witnessed, when one was given. */
  witnessed: SealRef | null;
  ms: number;
}

const ISO_MS = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
const BATCH = 10_000;

interface StoredSeal extends SealHeader {
  hash: string;
  signature: string;
  rowDigests: Buffer;
  sealedAtMs: number;
}

interface SealState {
  seal: StoredSeal;
  /** The sealedAt (ms) of the seal before when that seal took every row it saw, for `ROW_INSERTED_LATE`. */
  previousAtMs: number | null;
  lastId: bigint;
  position: number;
  hasher: ReturnType<typeof sealHasher> | null;
  changed: { id: string; at: string }[];
  missing: boolean;
}

/**
 * Verifies the whole audit trail (see the module) on `client` (a connection no one else uses meanwhile).
 * @throws whatever PostgreSQL answers; a finding is never thrown.
 */
export async function verifyAuditTrail(client: pg.ClientBase, opts: AuditVerifyOptions): Promise<AuditVerification> {
  const started = performance.now();
  const found: AuditFinding[] = [];
  const add = (f: AuditFinding) => found.push(f);
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    const seals = await loadSeals(client);
    const states = checkChain(seals, opts, add);
    const ranges = coveredRanges(states, add);
    const newest = seals[seals.length - 1] ?? null;
    const awaiting = awaitingSeal(newest);
    let rows = 0;
    let awaitingRows = 0;
    let r = 0;
    let expected = ranges[0]?.from ?? 0n;
    const finishRange = () => {
      const range = ranges[r]!;
      if (range.last) finishSeal(range.state, add);
      r += 1;
      expected = ranges[r]?.from ?? 0n;
    };
    /** Everything a seal covers below `id` that the rows skipped is missing. */
    const missingBelow = (id: bigint | null) => {
      while (r < ranges.length && (id === null || expected < id)) {
        const range = ranges[r]!;
        const until = id === null || range.to < id ? range.to : id - 1n;
        range.state.missing = true;
        add({
          kind: 'ROW_MISSING',
          rowId: String(expected),
          toRowId: String(until),
          sealId: range.state.seal.id,
          from: range.state.seal.firstAt,
          to: range.state.seal.lastAt,
          detail: `rows ${expected}–${until} of seal ${range.state.seal.id} are gone`,
        });
        if (until === range.to) finishRange();
        else expected = until + 1n;
      }
    };
    await client.query(
      `DECLARE audit_rows NO SCROLL CURSOR FOR
         SELECT e."id"::text AS id, to_char(e."at", ${ISO_MS}) AS at, ${ROW_DIGEST_SQL} AS digest
           FROM "AuditEvent" e ORDER BY e."id"`,
    );
    for (;;) {
      const batch = await client.query<{ id: string; at: string; digest: Buffer }>(`FETCH ${BATCH} FROM audit_rows`);
      if (!batch.rows.length) break;
      for (const row of batch.rows) {
        rows += 1;
        const id = BigInt(row.id);
        missingBelow(id);
        if (r < ranges.length && expected === id) {
          covered(ranges[r]!.state, row, opts.lateAfterMs, add);
          if (expected === ranges[r]!.to) finishRange();
          else expected += 1n;
        } else if (awaiting(id)) awaitingRows += 1;
        else
          add({
            kind: 'ROW_OUTSIDE_SEALS',
            rowId: row.id,
            sealId: null,
            from: row.at,
            to: row.at,
            detail: `row ${row.id} is in no seal, though the sealer passed its id`,
          });
      }
    }
    missingBelow(null);
    if (opts.witness) checkWitness(opts.witness, seals, add);
    await client.query('COMMIT');
    found.sort(byPlace);
    return {
      ok: found.length === 0,
      rows,
      seals: seals.length,
      awaitingSeal: awaitingRows,
      findings: found.slice(0, opts.maxFindings ?? 100),
      findingsTotal: found.length,
      newestSeal: newest ? { id: newest.id, hash: newest.hash } : null,
      witnessed: opts.witness ?? null,
      ms: Math.round(performance.now() - started),
    };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

async function loadSeals(client: pg.ClientBase): Promise<StoredSeal[]> {
  const res = await client.query<StoredSeal & { sealedAtMs: string }>(
    `SELECT "id"::text AS id, "format", "prevHash", to_char("sealedAt" AT TIME ZONE 'UTC', ${ISO_MS}) AS "sealedAt",
            (extract(epoch FROM "sealedAt") * 1000)::bigint::text AS "sealedAtMs", "ranges", "rowCount",
            "maxId"::text AS "maxId", "complete", to_char("firstAt" AT TIME ZONE 'UTC', ${ISO_MS}) AS "firstAt",
            to_char("lastAt" AT TIME ZONE 'UTC', ${ISO_MS}) AS "lastAt", "pendingGaps", "keyId", "hash",
            "signature", "rowDigests"
       FROM "AuditSeal" s ORDER BY s."id"`,
  );
  return res.rows.map((s) => ({ ...s, sealedAtMs: Number(s.sealedAtMs) }));
}

/** Signatures, numbering and chain links; @returns each seal's state for the row walk. */
function checkChain(seals: StoredSeal[], opts: AuditVerifyOptions, add: (f: AuditFinding) => void): SealState[] {
  const sealFinding = (s: StoredSeal, kind: AuditFindingKind, detail: string) =>
    add({ kind, rowId: null, sealId: s.id, from: s.firstAt, to: s.lastAt, detail });
  return seals.map((seal, i) => {
    const before = seals[i - 1];
    const expectedId = before ? BigInt(before.id) + 1n : 1n;
    if (BigInt(seal.id) !== expectedId)
      sealFinding(seal, 'SEAL_MISSING', `seals ${expectedId}–${BigInt(seal.id) - 1n} are gone`);
    else if (seal.prevHash !== (before?.hash ?? GENESIS_HASH))
      sealFinding(seal, 'SEAL_ALTERED', `seal ${seal.id} does not link to the seal before it`);
    const key = opts.publicKeys.get(seal.keyId);
    if (!key || !sealSignatureValid(key, seal.hash, seal.signature))
      sealFinding(seal, 'SEAL_ALTERED', `seal ${seal.id}'s signature does not verify (key ${seal.keyId})`);
    return {
      seal,
      previousAtMs: before?.complete ? before.sealedAtMs : null,
      lastId: 0n,
      position: 0,
      hasher: null,
      changed: [],
      missing: false,
    };
  });
}

interface CoveredRange {
  from: bigint;
  to: bigint;
  state: SealState;
  /** The seal's last range: its hash is complete after it. */
  last: boolean;
}

/** Every seal's ranges in id order; an overlap (a seal altered to claim rows twice) is a finding. */
function coveredRanges(states: SealState[], add: (f: AuditFinding) => void): CoveredRange[] {
  const all: CoveredRange[] = [];
  for (const state of states) {
    const ranges = (state.seal.ranges as IdRanges).map(([f, t]) => ({ from: BigInt(f), to: BigInt(t) }));
    state.lastId = ranges.reduce((m, x) => (x.to > m ? x.to : m), 0n);
    for (const x of ranges) all.push({ ...x, state, last: x.to === state.lastId });
  }
  all.sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
  const kept: CoveredRange[] = [];
  for (const range of all) {
    const prev = kept[kept.length - 1];
    if (prev && range.from <= prev.to) {
      range.state.missing = true;
      add({
        kind: 'SEAL_ALTERED',
        rowId: null,
        sealId: range.state.seal.id,
        from: range.state.seal.firstAt,
        to: range.state.seal.lastAt,
        detail: `seal ${range.state.seal.id} claims rows ${range.from}–${range.to} another seal covers`,
      });
      continue;
    }
    kept.push(range);
  }
  return kept;
}

/** The rows the newest seal has not reached: above its maxId, or in its pending gaps. */
function awaitingSeal(newest: StoredSeal | null): (id: bigint) => boolean {
  if (!newest) return () => true;
  const maxId = BigInt(newest.maxId);
  const gaps = (newest.pendingGaps as PendingGaps).map(([f, t]) => [BigInt(f), BigInt(t)] as const);
  return (id) => id > maxId || gaps.some(([f, t]) => id >= f && id <= t);
}

function covered(
  state: SealState,
  row: { id: string; at: string; digest: Buffer },
  lateAfterMs: number,
  add: (f: AuditFinding) => void,
) {
  state.hasher ??= sealHasher(state.seal);
  state.hasher.add(row.digest);
  const offset = state.position * STORED_DIGEST_BYTES;
  const stored = state.seal.rowDigests.subarray(offset, offset + STORED_DIGEST_BYTES);
  if (!stored.equals(row.digest.subarray(0, STORED_DIGEST_BYTES))) state.changed.push({ id: row.id, at: row.at });
  state.position += 1;
  if (state.previousAtMs !== null && Date.parse(row.at) < state.previousAtMs - lateAfterMs)
    add({
      kind: 'ROW_INSERTED_LATE',
      rowId: row.id,
      sealId: state.seal.id,
      from: row.at,
      to: state.seal.sealedAt,
      detail: `row ${row.id} dated ${row.at} was first sealed at ${state.seal.sealedAt}, after an earlier seal`,
    });
}

function finishSeal(state: SealState, add: (f: AuditFinding) => void) {
  const { seal } = state;
  if (state.missing) return;
  const hash = state.hasher?.hex() ?? null;
  if (hash === seal.hash && state.position === seal.rowCount && !state.changed.length) return;
  if (hash !== seal.hash && state.changed.length) {
    for (const row of state.changed)
      add({
        kind: 'ROW_CHANGED',
        rowId: row.id,
        sealId: seal.id,
        from: row.at,
        to: seal.lastAt,
        detail: `row ${row.id} is not what seal ${seal.id} recorded`,
      });
    return;
  }
  add({
    kind: 'SEAL_ALTERED',
    rowId: null,
    sealId: seal.id,
    from: seal.firstAt,
    to: seal.lastAt,
    detail: `seal ${seal.id} does not match the rows it covers`,
  });
}

function checkWitness(witness: SealRef, seals: StoredSeal[], add: (f: AuditFinding) => void) {
  const seal = seals.find((s) => s.id === witness.id);
  if (seal?.hash === witness.hash) return;
  const newest = seals[seals.length - 1];
  add({
    kind: 'SEALS_CUT_OFF',
    rowId: null,
    sealId: witness.id,
    from: newest?.lastAt ?? null,
    to: null,
    detail: seal
      ? `seal ${witness.id} differs from the one Temporal's history witnessed`
      : `seal ${witness.id}, witnessed by Temporal's history, is gone (the newest here is ${newest?.id ?? 'none'})`,
  });
}

const placeOf = (f: AuditFinding): bigint => BigInt(f.rowId ?? -1);
function byPlace(a: AuditFinding, b: AuditFinding): number {
  const x = placeOf(a);
  const y = placeOf(b);
  if (x !== y) return x < y ? -1 : 1;
  return Number(BigInt(a.sealId ?? 0) - BigInt(b.sealId ?? 0));
}

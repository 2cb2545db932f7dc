/**
 * CSV files written by PostgreSQL and streamed by the API (issue 24 Growth; docs/decisions.md "the report's CSV
 * is written by PostgreSQL"): the access-modification report and an access review campaign's decisions. A
 * statement's rows are copied with `COPY (...) TO STDOUT (FORMAT csv)` (pg-copy-streams) and the API passes the
 * bytes on with CRLF record ends (RFC 4180), so only buffers pass through the API's memory, in batches
 * (`batchedCsv`). Also the SQL pieces
 * both files use for their cells: spreadsheet-safe text, labels, ISO 8601 instants.
 */
import type { Readable } from 'node:stream';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { stringify } from 'csv-stringify/sync';
import type { Prisma, PrismaClient } from '@portal/db';
import { sqlPoolOf } from './sql';

/**
 * A text stored from users, defused for spreadsheets (OWASP CSV injection), as SQL over expression `e`: a value
 * starting with =, +, -, @, tab or carriage return gets an apostrophe first. Not for a file's own markers.
 */
export const safe = (e: string) =>
  `(CASE WHEN left((${e}), 1) IN ('=', '+', '-', '@', E'\\t', E'\\r') THEN '''' || (${e}) ELSE (${e}) END)`;

/** `labels` as a CASE over `e` (labels of the contract, written into the statement as literals). */
export const labelled = (e: string, labels: Record<string, string>) =>
  `(CASE ${e} ${Object.entries(labels)
    .map(([k, v]) => `WHEN ${pg.escapeLiteral(k)} THEN ${pg.escapeLiteral(v)}`)
    .join(' ')} END)`;

/** A `timestamp` column (UTC, as Prisma stores it) as ISO 8601 with milliseconds and Z. */
export const iso = (e: string) => `to_char(${e}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A text as an element of an array literal ('{"a","b"}'): quoted, its quotes and backslashes escaped. */
const arrayElement = (s: string) => `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/**
 * `sql` with its values written in as literals, for COPY (which takes no parameters): dates, numbers, booleans,
 * texts and arrays of texts (as array literals), escaped by pg; each typed by the statement as a bound value
 * is (a cast, or the column it is compared with).
 * @throws Error for any other value.
 */
export function inlined(sql: Prisma.Sql): string {
  return sql.text.replace(/\$(\d+)/g, (_, n: string) => {
    const v = sql.values[Number(n) - 1];
    if (v instanceof Date) return pg.escapeLiteral(v.toISOString());
    if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') return pg.escapeLiteral(String(v));
    if (Array.isArray(v) && v.every((e) => typeof e === 'string')) {
      return pg.escapeLiteral(`{${v.map(arrayElement).join(',')}}`);
    }
    throw new Error(`copy: value of type ${typeof v} cannot be written into COPY`);
  });
}

const QUOTE = 0x22;
const LF = 0x0a;
const CRLF = Buffer.from('\r\n');

/**
 * Ends records with CRLF (RFC 4180, as the portal's CSV files always have: docs/decisions.md) where
 * PostgreSQL's CSV ends them with LF: each LF outside a quoted field gets a CR before it. `state.quoted` carries
 * the quoting across chunks (a doubled quote inside a field toggles it twice).
 */
export function crlfRecords(chunk: Buffer, state: { quoted: boolean }): Buffer {
  const parts: Buffer[] = [];
  let from = 0;
  for (let i = 0; i < chunk.length; i++) {
    const c = chunk[i]!;
    if (c === QUOTE) state.quoted = !state.quoted;
    else if (c === LF && !state.quoted) {
      parts.push(chunk.subarray(from, i), CRLF);
      from = i + 1;
    }
  }
  if (from === 0) return chunk;
  parts.push(chunk.subarray(from));
  return Buffer.concat(parts);
}

/** Copies `sql`'s rows as CSV (CRLF records) on a connection of `pool`, yielding the bytes as PostgreSQL sends them. */
export async function* copiedCsv(pool: pg.Pool, sql: Prisma.Sql): AsyncGenerator<Buffer> {
  const client = await pool.connect();
  let stream: Readable | undefined;
  let done = false;
  try {
    stream = client.query(copyTo(`COPY (${inlined(sql)}) TO STDOUT (FORMAT csv)`));
    const state = { quoted: false };
    for await (const chunk of stream) yield crlfRecords(chunk as Buffer, state);
    done = true;
  } finally {
    // A download abandoned midway leaves the COPY running: that connection is closed, not reused.
    if (!done) stream?.destroy();
    client.release(!done);
  }
}

/** How a batched CSV file is read: its header and, per batch, the last key and the rows up to it. */
export interface BatchedCsv<K> {
  columns: readonly string[];
  /** The key of the last row of the batch after `after`; undefined when fewer than a batch remain. */
  boundary(after: K | undefined): Promise<K | undefined>;
  /** The rows after `after` up to and including `upTo` (all remaining without it), as text cells in order. */
  rows(after: K | undefined, upTo: K | undefined): Prisma.Sql;
  /**
   * When given, writes a batch's CSV records itself (CRLF ends) instead of the COPY of `rows`: for cells only
   * the API can make (a signature's verification). The batches keep their size, so memory stays bounded.
   */
  batch?(after: K | undefined, upTo: K | undefined): Promise<string>;
}

/**
 * A CSV file streamed in batches: a byte-order mark and the header row first (written by csv-stringify:
 * spreadsheet programs then read the file as UTF-8, names with accents), then the rows, one COPY per batch
 * between keys of an index, each begun once the consumer has taken the previous one (so no statement holds a
 * snapshot, or a connection, for a whole slow download). @throws Error when `prisma` has no pg pool.
 */
export async function* batchedCsv<K>(prisma: PrismaClient, file: BatchedCsv<K>): AsyncGenerator<Buffer | string> {
  const pool = sqlPoolOf(prisma);
  if (!pool) throw new Error('csv: the API’s pg pool is not attached');
  yield stringify([], { columns: [...file.columns], header: true, bom: true, record_delimiter: 'windows' });
  let after: K | undefined;
  for (;;) {
    const upTo = await file.boundary(after);
    if (file.batch) yield await file.batch(after, upTo);
    else yield* copiedCsv(pool, file.rows(after, upTo));
    if (!upTo) return;
    after = upTo;
  }
}

/**
 * The load-all call of every paged list (000 §9 "Load-all calls: page 1, size 1,000,000"): the whole list
 * answered as one page, streamed with bounded memory. The count and the rows are read in one read-only
 * REPEATABLE READ transaction on a connection of the API's SQL pool (shared/sql.ts), the rows through
 * `COPY (SELECT <row JSON> FROM (<rows>) t) TO STDOUT`: PostgreSQL writes each row's wire JSON (the list's
 * `RowJson`, shared/row-json.ts) and the API passes the bytes on (shared/copy-rows.ts), so it builds no JS
 * object per row (the driver's rows, even unparsed, grew the process by hundreds of MB at a million rows).
 * The envelope is the page envelope of every list (000 §3 Page info); `numberOfElements` is the count, which
 * the snapshot keeps true.
 *
 * The zod guarantee of the other answers (a row of an unexpected shape is never sent) holds here by
 * construction and by test: each list's row JSON is written once, next to its statement, from the columns of
 * that statement, and tests/integration/load-all-bytes.test.ts parses every list's PostgreSQL-built rows with
 * the contract's wire schema and compares the stream's bytes with the view's JSON; a column that drifts fails
 * the statement itself. What SQL cannot vouch for goes through the view's own code (`RowJson.finish`).
 *
 * COPY's CSV format with a quote and a delimiter that no row JSON contains (control characters, which JSON
 * escapes) sends each row's text unchanged, one per line: the text format would double its backslashes.
 */
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { to as copyTo } from 'pg-copy-streams';
import { LOAD_ALL_SIZE, type Page } from '@portal/contract';
import type { Prisma, PrismaClient } from '@portal/db';
import { toPage } from '../http/page';
import { CountRowsSchema, pageAndCount, sqlPoolOf } from './sql';
import { inlined } from './csv-copy';
import { CopyRows } from './copy-rows';
import type { RowJson } from './row-json';

/** A list's statements: its rows in the order answered (no LIMIT) and `SELECT count(*)::int AS total`. */
export interface LoadAllSql {
  rows: Prisma.Sql;
  count: Prisma.Sql;
}

/** COPY's framing: one row per line, no byte of the row's JSON quoted or escaped (see above). */
const COPY_OPTIONS = `(FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')`;

/**
 * The COPY statement of `sql`'s rows written by `json`, its values inlined (COPY takes no parameters). Rows
 * keep the statement's order: a projection over an ordered subquery is never re-sorted by PostgreSQL.
 */
export const copyStatement = (sql: Prisma.Sql, json: RowJson): string =>
  `COPY (SELECT ${json.sql} FROM (${inlined(sql)}) t) TO STDOUT ${COPY_OPTIONS}`;

/**
 * Opens the snapshot, counts and returns the answer as a stream of JSON bytes: the page envelope of `q` and
 * `sort` (000 §3) around the rows of `sql.rows`, each written by PostgreSQL as `json` says. The connection goes
 * back to the pool when the stream ends; it is closed when the stream fails or is destroyed (the client went
 * away), also before its first read.
 * @throws Error when `prisma` has no SQL pool (the API always has one) or PostgreSQL refuses the statements
 * (before the stream is returned); the stream itself fails on a later refusal or on a row `json.finish` refuses.
 */
export async function streamWholeList(
  prisma: PrismaClient,
  sql: LoadAllSql,
  q: { page: number; size: number },
  sort: string,
  json: RowJson,
): Promise<Readable> {
  const pool = sqlPoolOf(prisma);
  if (!pool) throw new Error('the load-all call needs the API SQL pool');
  const client = await pool.connect();
  // A pool hands out a connection without an error listener: PostgreSQL ending it (a restart, an
  // administrator) mid-copy would otherwise be an unhandled 'error' event that ends the process. The copy
  // fails instead, and the stream with it.
  const onHeldError = () => undefined;
  client.on('error', onHeldError);
  let released = false;
  let started = false;
  let copy: Readable | undefined;
  const release = async (ok: boolean) => {
    if (released) return;
    released = true;
    // A copy left midway keeps the connection busy until PostgreSQL has sent every row: the connection is
    // closed instead (PostgreSQL then rolls the transaction back), as is one in any other unknown state.
    if (!ok && !copy) await client.query('ROLLBACK').catch(() => undefined);
    copy?.destroy();
    client.removeListener('error', onHeldError);
    client.release(ok ? undefined : true);
  };
  let total: number;
  let rows: Readable;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    total = CountRowsSchema.parse((await client.query(sql.count.text, sql.count.values)).rows)[0]!.total;
    rows = copy = client.query(copyTo(copyStatement(sql.rows, json)));
    // Between its first rows and the body's first read an error would have no listener and end the process;
    // the body's reads still see it.
    rows.on('error', () => undefined);
    // Until its first rows (or its end) a refused statement is still an error answer, not a cut-off 200.
    await firstRows(rows);
  } catch (err) {
    await release(false);
    throw err;
  }
  const { content: _none, ...envelope } = toPage([], total, q, sort);
  const head = JSON.stringify({ ...envelope, numberOfElements: Math.min(total, q.size) });

  async function* body(): AsyncGenerator<Buffer | string> {
    started = true;
    try {
      yield `${head.slice(0, -1)},"content":[`;
      const joined = new CopyRows((row) => json.finish(row));
      // pg-copy-streams hands over one buffer of its own per read from the socket (the rows' bytes copied out
      // of their COPY messages): joined in place, no further copy.
      for await (const chunk of rows) yield* joined.push(chunk as Buffer, true);
      joined.end();
      copy = undefined;
      yield ']}';
      await client.query('COMMIT');
      await release(true);
    } finally {
      // Reached without the release above when the client went away, a statement failed or a row was refused.
      await release(false);
    }
  }
  const stream = Readable.from(body(), { objectMode: false });
  // A stream destroyed before its first read (the caller went away while the answer was being prepared) never
  // runs the body, so its `finally` cannot give the connection back: the stream's close does.
  stream.once('close', () => {
    if (!started) void release(false);
  });
  return stream;
}

/** Resolves once `stream` can be read (its first data, or its end); rejects on its error before then. */
function firstRows(stream: Readable): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (err?: Error) => {
      stream.off('readable', ready).off('error', settle);
      if (err) reject(err);
      else resolve();
    };
    const ready = () => settle();
    stream.once('readable', ready).once('error', settle);
  });
}

/** Sends a `streamWholeList` answer as the route's JSON body (the response schema is not applied to a stream). */
export const sendStream = (reply: FastifyReply, stream: Readable): FastifyReply =>
  reply.type('application/json; charset=utf-8').send(stream as never);

/**
 * The answer of a paged list written as SQL (`build(page)`: its statements, the rows of that page only when
 * given one): one page with its total, the count beside it (shared/sql.ts pageAndCount), or, for the load-all
 * size, the whole list streamed (`streamWholeList`, its rows written by PostgreSQL as `json` says). `parse`
 * turns PostgreSQL's rows of one page into wire rows; `decorate`, when given, adds what only the API can (then the
 * load-all size is answered as one page, not streamed).
 * @throws ZodError when PostgreSQL answers rows of an unexpected shape (a schema drift, answered 500).
 */
export async function answerList<T>(
  prisma: PrismaClient,
  reply: FastifyReply,
  build: (page?: { page: number; size: number }) => LoadAllSql,
  q: { page: number; size: number },
  sort: string,
  parse: (rows: unknown[]) => T[],
  json: RowJson,
  decorate?: (rows: T[]) => Promise<T[]>,
): Promise<Page<T> | FastifyReply> {
  // What PostgreSQL cannot write (the signatures, verified by the API) needs the rows in the API: a decorated
  // list is answered as one page of the whole list (the lists decorated are one person's history).
  if (q.size === LOAD_ALL_SIZE && !decorate) {
    return sendStream(reply, await streamWholeList(prisma, build(), q, sort, json));
  }
  const { count, rows } = await pageAndCount(prisma, () => build(q), q.page);
  const parsed = parse(rows);
  return toPage(decorate ? await decorate(parsed) : parsed, CountRowsSchema.parse(count)[0]!.total, q, sort);
}

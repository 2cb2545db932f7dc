/**
 * The load-all call of every paged list (000 §9 "Load-all calls: page 1, size 1,000,000"): the whole list
 * answered as one page, streamed with bounded memory. The count and the rows are read in one read-only
 * REPEATABLE READ transaction on a connection of the API's SQL pool (shared/sql.ts), the rows through a
 * server-side cursor FETCHed `BATCH` at a time; each batch is parsed (zod) and written as JSON before the next
 * is fetched, so the API holds one batch, whatever the list's size. The envelope is the page envelope of every
 * list (000 §3 Page info); `numberOfElements` is the count, which the snapshot keeps true.
 */
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { LOAD_ALL_SIZE, type Page } from '@portal/contract';
import type { Prisma, PrismaClient } from '@portal/db';
import { toPage } from '../http/page';
import { CountRowsSchema, pageAndCount, sqlPoolOf } from './sql';

/** Rows per FETCH: a few hundred KB of JSON. */
const BATCH = 1000;
const CURSOR = 'load_all';

/** A list's statements: its rows in the order answered (no LIMIT) and `SELECT count(*)::int AS total`. */
export interface LoadAllSql {
  rows: Prisma.Sql;
  count: Prisma.Sql;
}

/**
 * Opens the snapshot, counts, declares the cursor and returns the answer as a stream of JSON text; `parse`
 * turns one batch of PostgreSQL's rows into wire rows (and throws on rows of an unexpected shape). The
 * connection goes back to the pool when the stream ends, fails or is destroyed (the client went away), also
 * before its first read.
 * @throws Error when `prisma` has no SQL pool (the API always has one) or PostgreSQL refuses the statements.
 */
export async function streamWholeList<T>(
  prisma: PrismaClient,
  sql: LoadAllSql,
  q: { page: number; size: number },
  sort: string,
  parse: (rows: unknown[]) => T[],
): Promise<Readable> {
  const pool = sqlPoolOf(prisma);
  if (!pool) throw new Error('the load-all call needs the API SQL pool');
  const client = await pool.connect();
  // A pool hands out a connection without an error listener: PostgreSQL ending it (a restart, an
  // administrator) between two FETCHes would otherwise be an unhandled 'error' event that ends the process.
  // The next statement fails instead, and the stream with it.
  const onHeldError = () => undefined;
  client.on('error', onHeldError);
  let released = false;
  let started = false;
  const release = async (ok: boolean) => {
    if (released) return;
    released = true;
    if (!ok) await client.query('ROLLBACK').catch(() => undefined);
    client.removeListener('error', onHeldError);
    // A connection left in an unknown state is discarded rather than reused.
    client.release(ok ? undefined : true);
  };
  let total: number;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    // Every row will be read: plan for the whole result, not for the first rows as a cursor otherwise does.
    await client.query('SET LOCAL cursor_tuple_fraction = 1');
    total = CountRowsSchema.parse((await client.query(sql.count.text, sql.count.values)).rows)[0]!.total;
    await client.query(`DECLARE ${CURSOR} NO SCROLL CURSOR FOR ${sql.rows.text}`, sql.rows.values);
  } catch (err) {
    await release(false);
    throw err;
  }
  const { content: _none, ...envelope } = toPage([], total, q, sort);
  const head = JSON.stringify({ ...envelope, numberOfElements: Math.min(total, q.size) });

  async function* body(): AsyncGenerator<string> {
    started = true;
    try {
      yield `${head.slice(0, -1)},"content":[`;
      let first = true;
      for (;;) {
        const { rows } = await client.query(`FETCH ${BATCH} FROM ${CURSOR}`);
        if (!rows.length) break;
        let chunk = '';
        for (const row of parse(rows)) {
          chunk += (first ? '' : ',') + JSON.stringify(row);
          first = false;
        }
        yield chunk;
      }
      yield ']}';
      await client.query('COMMIT');
      await release(true);
    } finally {
      // Reached without the release above when the client went away or a statement failed.
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

/** Sends a `streamWholeList` answer as the route's JSON body (the response schema is not applied to a stream). */
export const sendStream = (reply: FastifyReply, stream: Readable): FastifyReply =>
  reply.type('application/json; charset=utf-8').send(stream as never);

/**
 * The answer of a paged list written as SQL (`build(page)`: its statements, the rows of that page only when
 * given one): one page with its total, the count beside it (shared/sql.ts pageAndCount), or, for the load-all
 * size, the whole list streamed (`streamWholeList`). `parse` turns PostgreSQL's rows into wire rows.
 * @throws ZodError when PostgreSQL answers rows of an unexpected shape (a schema drift, answered 500).
 */
export async function answerList<T>(
  prisma: PrismaClient,
  reply: FastifyReply,
  build: (page?: { page: number; size: number }) => LoadAllSql,
  q: { page: number; size: number },
  sort: string,
  parse: (rows: unknown[]) => T[],
): Promise<Page<T> | FastifyReply> {
  if (q.size === LOAD_ALL_SIZE) return sendStream(reply, await streamWholeList(prisma, build(), q, sort, parse));
  const { count, rows } = await pageAndCount(prisma, () => build(q), q.page);
  return toPage(parse(rows), CountRowsSchema.parse(count)[0]!.total, q, sort);
}

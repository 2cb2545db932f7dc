/**
 * Helpers of the hot paths written as SQL (issue 14; issue 24 for the filing): shared by the features' queries.
 *
 * The hot statements (the session look-up of every secure call, the queue page) run on a small `pg` pool of
 * their own instead of Prisma's `$queryRaw`, whose client runtime costs more CPU than PostgreSQL spends on
 * them; the hot transactions (filing) on a second one. The pools belong to one Prisma client
 * (`attachSqlPool`, by the session plugin, which also ends them when the app closes); `queryRows` and
 * `inSqlTransaction` fall back to Prisma for a client without them (a script, a test calling a query function
 * directly), so the answers are the same either way.
 */
import crypto from 'node:crypto';
import pg from 'pg';
import { z } from 'zod';
import { type Prisma, poolConfigFromUrl, type PrismaClient, type SqlRunner, prismaRunner } from '@portal/db';

/**
 * The pattern of a case-insensitive "contains" (`column ILIKE pattern`): `%text%` with the text's own `%`,
 * `_` and `\` matched literally, so a filter is plain text, never a wildcard.
 */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The answer of `SELECT count(*)::int AS total ...`: exactly one row. */
export const CountRowsSchema = z.array(z.object({ total: z.number().int() })).length(1);

/** OID of `timestamp without time zone`, the column type of Prisma's `DateTime`. */
const TIMESTAMP_OID = 1114;

/**
 * Prisma stores `DateTime` as UTC in `timestamp` columns; pg would read them in the process's time zone.
 * This parser reads them as UTC, as Prisma does ('2026-11-22 01:15:18.123' is 01:15:18.123Z).
 */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMP_OID && format !== 'binary'
      ? (value: string) => new Date(`${value.replace(' ', 'T')}Z`)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

const pools = new WeakMap<PrismaClient, pg.Pool>();
/** The transactions' own pool (`inSqlTransaction`): a filing waiting on a lock never holds a read's connection. */
const writePools = new WeakMap<PrismaClient, pg.Pool>();

/** The pools of one Prisma client: hot reads, and the hot path's transactions. */
export interface SqlPools {
  reads: pg.Pool;
  writes: pg.Pool;
  /** Ends both pools. */
  end(): Promise<void>;
}

/**
 * Gives `prisma` two pools of at most `max` connections each to `databaseUrl`: one for `queryRows` (and the
 * streams that borrow a connection), one for `inSqlTransaction`. Idle connections close after 10 s and never
 * keep the process alive; a connection PostgreSQL drops while idle is logged by `onError` and replaced on the
 * next query. @returns the pools (their owner ends them).
 */
export function attachSqlPool(
  prisma: PrismaClient,
  databaseUrl: string,
  onError: (err: Error) => void,
  max = 4,
): SqlPools {
  const open = () => {
    const pool = new pg.Pool({
      ...poolConfigFromUrl(databaseUrl),
      max,
      idleTimeoutMillis: 10_000,
      allowExitOnIdle: true,
      types,
    });
    pool.on('error', onError);
    return pool;
  };
  const reads = open();
  const writes = open();
  pools.set(prisma, reads);
  writePools.set(prisma, writes);
  return { reads, writes, end: async () => void (await Promise.all([reads.end(), writes.end()])) };
}

/** `sql`'s values as `pg` binds them: dates as UTC ISO strings, which a `timestamp` column reads as written. */
const boundValues = (sql: Prisma.Sql): unknown[] => sql.values.map((v) => (v instanceof Date ? v.toISOString() : v));

/** At most this many distinct statements are prepared; any further one runs unnamed (planned each time). */
const MAX_PREPARED = 256;
const statementNames = new Map<string, string>();

/**
 * The name under which `text` is prepared on each pool connection: PostgreSQL then parses and plans it once
 * per connection instead of on every call (planning the queue's view is most of its cost). The name is a
 * digest of the text, so one name never stands for two statements. @returns undefined past MAX_PREPARED.
 */
function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (!name && statementNames.size < MAX_PREPARED) {
    name = `hot_${crypto.createHash('sha256').update(text).digest('base64url').slice(0, 32)}`;
    statementNames.set(text, name);
  }
  return name;
}

/** `prisma`'s pool, if it has one (a statement that needs one connection for several steps borrows from it). */
export const sqlPoolOf = (prisma: PrismaClient): pg.Pool | undefined => pools.get(prisma);

/** Forgets `prisma`'s pools (the caller ends them). */
export const detachSqlPool = (prisma: PrismaClient): void => {
  pools.delete(prisma);
  writePools.delete(prisma);
};

/**
 * Runs one `Prisma.sql` statement and returns its rows, unparsed (the caller parses them with zod): on
 * `prisma`'s pool when it has one, as a prepared statement (dates bound as UTC ISO strings, which a
 * `timestamp` column reads as written), otherwise through `$queryRaw`.
 *
 * `prepare: false` runs it unnamed, planned for its values on every call. For a statement whose best plan
 * depends on its values: PostgreSQL switches a prepared statement to one generic plan after five runs, and
 * for the Users list (a tab flag, a LIMIT, a LIKE pattern) that plan scanned and sorted the whole tab (page 1
 * at 100,000 users: 37 ms prepared against 7 ms planned each time).
 */
export async function queryRows(
  prisma: PrismaClient,
  sql: Prisma.Sql,
  opts: { prepare?: boolean } = {},
): Promise<unknown[]> {
  const pool = pools.get(prisma);
  if (!pool) return prisma.$queryRaw<unknown[]>(sql);
  const name = opts.prepare === false ? undefined : statementName(sql.text);
  return (await pool.query({ name, text: sql.text, values: boundValues(sql) })).rows as unknown[];
}

/** The runner of one pool connection: each statement prepared by name, dates bound as UTC ISO strings. */
const clientRunner =
  (client: pg.PoolClient): SqlRunner =>
  async (sql) =>
    (await client.query({ name: statementName(sql.text), text: sql.text, values: boundValues(sql) })).rows as unknown[];

/**
 * Runs `work` in one transaction on `prisma`'s pool when it has one (BEGIN, `work`'s statements, COMMIT on one
 * connection), otherwise in a Prisma interactive transaction: the hot writes (filing) pay PostgreSQL's round
 * trips, not Prisma's client runtime for each. `opening`, a statement without parameters (a lock), runs first,
 * sent with BEGIN in one round trip. A transaction not done within `timeoutMs` is rolled back by dropping its
 * connection (PostgreSQL may be frozen), as Prisma's transaction timeout does.
 * @returns what `work` returns. @throws what `work` throws (rolled back), or the database's error.
 */
export async function inSqlTransaction<T>(
  prisma: PrismaClient,
  work: (run: SqlRunner) => Promise<T>,
  opts: { timeoutMs: number; opening?: string },
): Promise<T> {
  const { timeoutMs, opening } = opts;
  const pool = writePools.get(prisma);
  if (!pool) {
    return prisma.$transaction(
      async (tx) => {
        if (opening) await tx.$executeRawUnsafe(opening);
        return work(prismaRunner(tx));
      },
      { timeout: timeoutMs },
    );
  }
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`transaction not done within ${timeoutMs} ms`)), timeoutMs);
  });
  const connecting = pool.connect();
  const client = await Promise.race([connecting, late]).catch((err: unknown) => {
    clearTimeout(timer);
    // A connection that comes after the deadline (PostgreSQL was frozen) is dropped, not kept by nobody.
    connecting.then(
      (given) => given.release(true),
      () => {},
    );
    throw err;
  });
  let timedOut = false;
  const deadline = late.catch((err: unknown) => {
    timedOut = true;
    throw err;
  });
  try {
    const result = await Promise.race([
      (async () => {
        // The simple-query protocol runs both statements of one text in one round trip.
        await client.query(opening ? `BEGIN; ${opening}` : 'BEGIN');
        const answer = await work(clientRunner(client));
        await client.query('COMMIT');
        return answer;
      })(),
      deadline,
    ]);
    client.release();
    return result;
  } catch (err) {
    // A refusal thrown by `work` rolls back on the idle connection; a connection that is late, or whose
    // rollback fails, may still hold the transaction (or hang) and is never handed out again.
    const rolledBack =
      !timedOut &&
      (await Promise.race([
        client.query('ROLLBACK').then(
          () => true,
          () => false,
        ),
        deadline.catch(() => false),
      ]));
    client.release(rolledBack ? undefined : err instanceof Error ? err : new Error(String(err)));
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs a list's count and page statements (`build(total)`: the statements, knowing the total or not yet):
 * the first page side by side with the count; a deeper page after it, since the total decides whether the
 * page is read from the end (shared/deep-page.ts). @returns both answers' rows, unparsed.
 */
export async function pageAndCount(
  prisma: PrismaClient,
  build: (total?: number) => { rows: Prisma.Sql; count: Prisma.Sql },
  page: number,
  opts: { prepare?: boolean } = {},
): Promise<{ count: unknown[]; rows: unknown[] }> {
  const first = build();
  if (page === 1) {
    const [count, rows] = await Promise.all([
      queryRows(prisma, first.count, opts),
      queryRows(prisma, first.rows, opts),
    ]);
    return { count, rows };
  }
  const count = await queryRows(prisma, first.count, opts);
  return { count, rows: await queryRows(prisma, build(CountRowsSchema.parse(count)[0]!.total).rows, opts) };
}

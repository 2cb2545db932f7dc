/**
 * Growth in every order (issue 24 Growth; issue 36 "Flat at a million in every order"): the first page and the
 * last page of the review queue, the Users list and the audit trail, in each sort field and both directions,
 * are read in order from an index: no Sort between the page's Limit and a big table, which would read and
 * order every row the view holds, however small the page. The statements are the routes' own builders.
 *
 * The planner's choice depends on the statistics, so the plans are taken in a database of this file's own (a
 * clone of the seeded template) filled with a fixed number of rows (the bench's set-based seeding) and
 * analysed once: nothing another file writes changes what the planner sees. In the shared database the same
 * checks failed in two full runs, as other files had just filled the queue. Sequential scans and sorts are
 * disabled as in growth-explain.test.ts, so PostgreSQL still sorts only where no index gives the order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { type Prisma, poolConfigFromUrl } from '@portal/db';
import { AUDIT_SORT_FIELDS, USER_SORT_FIELDS } from '@portal/contract';
import { USER_REQUEST_SORT_FIELDS, userRequestQueueSql } from '../../api/src/features/requests/queue-sql';
import { usersListSql } from '../../api/src/features/users/list-sql';
import { auditEventsSql } from '../../api/src/features/audit/list-sql';
import { seedAudit, seedRequests, seedUsers, settle } from '../bench/growth-seed';
import { cloneDatabase } from './hostile/walker-support';
import { BIG, type PlanNode, seqScans } from './plans';

/** Rows of each big table in this file's database: enough that a whole sort costs far more than an index walk. */
const ROWS = { users: 20_000, requests: 20_000, audit: 40_000 };

/** The big tables a node reads below it, short of another Limit. */
function bigTablesBelow(node: PlanNode): string[] {
  const own = BIG.has(node['Relation Name'] ?? '') ? [node['Relation Name']!] : [];
  return [...own, ...(node.Plans ?? []).filter((p) => p['Node Type'] !== 'Limit').flatMap(bigTablesBelow)];
}

/** The nodes below `node` down to the next Limit. */
const belowUpToLimit = (node: PlanNode): PlanNode[] =>
  (node.Plans ?? []).flatMap((p) => (p['Node Type'] === 'Limit' ? [] : [p, ...belowUpToLimit(p)]));

/**
 * The big tables a plan sorts to cut a page: a Sort (or an Incremental Sort) between a Limit and a big table.
 * A page read in order from an index has no Sort there; the deferred join's outer ORDER BY sorts only the
 * page's rows, above the Limit.
 */
function wholeSorts(node: PlanNode): string[] {
  const own =
    node['Node Type'] === 'Limit'
      ? belowUpToLimit(node)
          .filter((n) => /Sort$/.test(n['Node Type']))
          .flatMap(bigTablesBelow)
      : [];
  return [...new Set([...own, ...(node.Plans ?? []).flatMap(wholeSorts)])];
}

let pool: pg.Pool;
let drop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  const clone = await cloneDatabase();
  drop = clone.drop;
  pool = new pg.Pool({ ...poolConfigFromUrl(clone.url), max: 2 });
  const quiet = console.log;
  console.log = () => {};
  try {
    await seedUsers(pool, ROWS.users);
    await seedRequests(pool, ROWS.requests);
    await seedAudit(pool, ROWS.audit);
    await settle(pool);
  } finally {
    console.log = quiet;
  }
});

afterAll(async () => {
  await pool?.end();
  await drop?.();
});

/** The big tables a statement reads in full, sequentially or to sort them whole (sorts and scans disabled). */
async function readsInFull(sql: Prisma.Sql): Promise<string[]> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL enable_seqscan = off');
    await client.query('SET LOCAL enable_sort = off');
    const values = sql.values.map((v) => (v instanceof Date ? v.toISOString() : v));
    const res = await client.query(`EXPLAIN (FORMAT JSON) ${sql.text}`, values);
    const plan = (res.rows[0]['QUERY PLAN'] as Array<{ Plan: PlanNode }>)[0]!.Plan;
    return [...new Set([...seqScans(plan), ...wholeSorts(plan)])];
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
}

it('the check sees a sort of a whole table where no index serves the order', async () => {
  // No index holds "before": ordering by it reads and sorts every row, however small the page.
  const sql = { text: 'SELECT "id" FROM "AuditEvent" ORDER BY "before" LIMIT 25', values: [] } as unknown as Prisma.Sql;
  expect(await readsInFull(sql)).toEqual(['AuditEvent']);
});

/** A page read from the end, the order reversed (shared/deep-page.ts): the last of a million rows. */
const TOTAL = 1_000_000;
const LAST = { page: TOTAL / 25, size: 25 };
const PAGES = [
  [{ page: 1, size: 25 }, undefined],
  [LAST, TOTAL],
] as const;

/** Both directions of each sort field. */
const ordersOf = <F extends string>(fields: readonly F[]) =>
  fields.flatMap((f) => [
    [f, 'asc'],
    [f, 'desc'],
  ]) as Array<[F, 'asc' | 'desc']>;

describe('every order of the queue has an index of its own', () => {
  for (const [field, dir] of ordersOf(USER_REQUEST_SORT_FIELDS)) {
    it(`${field},${dir}: first page and last page of the whole queue, the open rows and one status`, async () => {
      for (const status of ['all', 'pending', 'APPROVED'] as const) {
        for (const [q, total] of PAGES) {
          const { rows } = userRequestQueueSql(status, q, field, dir, total);
          expect(await readsInFull(rows), `${status} ${rows.text}`).toEqual([]);
        }
      }
    });
  }
});

describe('every order of the Users list has an index of its own', () => {
  for (const [field, dir] of ordersOf(USER_SORT_FIELDS)) {
    it(`${field},${dir}: the active tab's first page and last page`, async () => {
      for (const [q, total] of PAGES) {
        const { rows } = usersListSql(false, q, field, dir, {}, total);
        expect(await readsInFull(rows), rows.text).toEqual([]);
      }
    });
  }
});

describe('every order of the audit trail has an index of its own', () => {
  for (const [field, dir] of ordersOf(AUDIT_SORT_FIELDS)) {
    it(`${field},${dir}: first page and last page`, async () => {
      for (const [q, total] of PAGES) {
        const { rows } = auditEventsSql(q, field, dir, total);
        expect(await readsInFull(rows), rows.text).toEqual([]);
      }
    });
  }
});

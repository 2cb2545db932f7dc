/**
 * Issue 24 Growth: every statement of the review queue, the Users list, the audit trail and the
 * access-modification report is served by an index, never by a sequential scan over the big tables. The
 * statements are the API's own: the builders the routes call (first pages, pages read from the end, filtered
 * pages, counts; the report's batch boundaries and its first, later and last batches). The test database is small, so each EXPLAIN runs with
 * enable_seqscan off: PostgreSQL then still chooses a sequential scan only where no index can serve the
 * statement, which is what this test must catch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { Prisma, poolConfigFromUrl } from '@portal/db';
import { UserRequestsStatusSchema } from '@portal/contract';
import { userRequestQueueSql } from '../../api/src/features/requests/queue-sql';
import { usersListSql } from '../../api/src/features/users/list-sql';
import { auditEventsSql } from '../../api/src/features/audit/list-sql';
import { reportBoundarySql, reportRowsSql } from '../../api/src/features/reports/report';
import { stackEnv } from './fixtures';
import { type PlanNode, seqScans } from './plans';

let pool: pg.Pool;

/** The plan of `text` with `values`, sequential scans disabled wherever an index could serve. */
async function planOf(text: string, values: unknown[]): Promise<PlanNode> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL enable_seqscan = off');
    const res = await client.query(`EXPLAIN (FORMAT JSON) ${text}`, values);
    return (res.rows[0]['QUERY PLAN'] as Array<{ Plan: PlanNode }>)[0]!.Plan;
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
}

const explainSql = async (sql: Prisma.Sql) =>
  seqScans(
    await planOf(
      sql.text,
      sql.values.map((v) => (v instanceof Date ? v.toISOString() : v)),
    ),
  );

beforeAll(() => {
  pool = new pg.Pool({ ...poolConfigFromUrl(stackEnv().DATABASE_URL!), max: 2 });
});
afterAll(async () => {
  await pool?.end();
});

it('the check sees a sequential scan where no index serves', async () => {
  // No index holds "before": the one statement here that must fail the check.
  expect(await explainSql(Prisma.sql`SELECT "id" FROM "AuditEvent" WHERE "before" IS NOT NULL`)).toEqual([
    'AuditEvent',
  ]);
});

/** A page deep in a list of a million rows: read from the end (shared/deep-page.ts). */
const DEEP = { page: 39_000, size: 25 };
const TOTAL = 1_000_000;

describe('the queue statements use indexes', () => {
  for (const status of UserRequestsStatusSchema.options) {
    it(`${status}: first page, last page, filtered page and their counts`, async () => {
      const cases = [
        userRequestQueueSql(status, { page: 1, size: 25 }, 'dateSubmitted', 'desc'),
        userRequestQueueSql(status, DEEP, 'dateSubmitted', 'desc', TOTAL),
        userRequestQueueSql(status, { page: 1, size: 25, filter: 'rarefield' }, 'dateSubmitted', 'desc'),
      ];
      for (const { rows, count } of cases) {
        expect(await explainSql(rows), rows.text).toEqual([]);
        expect(await explainSql(count), count.text).toEqual([]);
      }
      // A filter matching many rows through shared values walks the view's index (from either end).
      for (const q of [
        { page: 1, size: 25, filter: 'rarefield' },
        { ...DEEP, filter: 'rarefield' },
      ]) {
        const walk = userRequestQueueSql(status, q, 'dateSubmitted', 'desc', TOTAL).walk!(10_000);
        expect(await explainSql(walk), walk.text).toEqual([]);
      }
    });
  }
});

describe('the Users list statements use indexes', () => {
  it('the active tab: first page, filtered page and their counts', async () => {
    for (const q of [
      { page: 1, size: 25 },
      { page: 1, size: 25, filter: 'rarefield' },
    ]) {
      const { rows, count } = usersListSql(false, q, 'person.lastName', 'asc');
      expect(await explainSql(rows), rows.text).toEqual([]);
      expect(await explainSql(count), count.text).toEqual([]);
    }
    // A filter matching many users walks the first (or, past the middle, the last) users of the tab's index.
    for (const [q, total] of [
      [{ page: 1, size: 25, filter: 'rarefield' }, 10_000],
      [{ ...DEEP, filter: 'rarefield' }, TOTAL],
    ] as const) {
      for (const field of ['person.lastName', 'person.firstName', 'person.email'] as const) {
        const walk = usersListSql(false, q, field, 'asc', {}, total).walk!(10_000);
        expect(await explainSql(walk), walk.text).toEqual([]);
      }
    }
  });
});

describe('the audit trail statements use indexes', () => {
  it('first page, last page, filtered page and their counts', async () => {
    const cases = [
      auditEventsSql({ page: 1, size: 25 }, 'at', 'desc'),
      auditEventsSql(DEEP, 'at', 'desc', TOTAL),
      // The free text alone is counted from the per-action counts; beside another filter, row by row.
      auditEventsSql({ page: 1, size: 25, filter: 'rarefield' }, 'at', 'desc'),
      auditEventsSql({ page: 1, size: 25, filter: 'rarefield', entityType: 'UserAccess' }, 'at', 'desc'),
    ];
    for (const { rows, count } of cases) {
      expect(await explainSql(rows), rows.text).toEqual([]);
      expect(await explainSql(count), count.text).toEqual([]);
    }
    // A filter matching many rows walks the newest (or, past the middle, the oldest) rows of the (at, id) index.
    for (const total of [50_000, TOTAL]) {
      const walk = auditEventsSql({ page: 1, size: 25, filter: 'rarefield' }, 'at', 'desc', total).walk!(10_000);
      expect(await explainSql(walk), walk.text).toEqual([]);
    }
    const lastPage = auditEventsSql({ ...DEEP, filter: 'rarefield' }, 'at', 'desc', TOTAL).walk!(10_000);
    expect(await explainSql(lastPage), lastPage.text).toEqual([]);
  });
});

describe('the report statements use indexes', () => {
  it('its first batch and a later one, with and without filters', async () => {
    const after = { sysdat: new Date('2024-01-01T00:00:00.000Z'), id: 1000 };
    for (const q of [{}, { startDate: '2020-01-01', endDate: '2026-01-01', proxyRequests: 'false' as const }]) {
      const upTo = { sysdat: new Date('2025-01-01T00:00:00.000Z'), id: 2000 };
      expect(await explainSql(reportBoundarySql(q, undefined))).toEqual([]);
      expect(await explainSql(reportBoundarySql(q, after))).toEqual([]);
      expect(await explainSql(reportRowsSql(q, undefined, upTo))).toEqual([]);
      expect(await explainSql(reportRowsSql(q, after, upTo))).toEqual([]);
      expect(await explainSql(reportRowsSql(q, after))).toEqual([]);
    }
  });
});

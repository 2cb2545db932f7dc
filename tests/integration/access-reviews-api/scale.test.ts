/**
 * Access review campaigns at size (issue 25 "Failure and scale"): a campaign of 100,000 review items, as the
 * bench has. A reviewer's page of 50 (User Support, and LAO staff of one LAO in ten) has its exact totals and
 * its statements read the items through the indexes, never a sequential scan; a bulk decision of 1,000 items by
 * ids decides and audits each, of 10,000 by filter is allowed and more is refused (422 `filter: size`); the
 * decisions CSV holds every item, in batches, with CRLF records. How fast (page p95 under 50 ms, a bulk
 * decision under 2 s) is measured by `npm run bench` (tests/bench/access-review.ts), never by a timed test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Prisma } from '@portal/db';
import { itemsCountSql, itemsPageSql, pagePlanOf } from '../../../api/src/features/access-reviews/items-sql';
import { type Session, type TestApi, caller, signIn, startApi } from '../harness';
import { laoReviewer, openCampaign, unique } from './support';

const TOTAL = 100_000;
const LAOS = 10;
let api: TestApi;
let call: ReturnType<typeof caller>;
let support: Session;
let staff: Session;
let staffId: number;
let campaignId: number;
const prefix = unique('SC');
const lao = (n: number) => `${prefix}${n}`;

beforeAll(async () => {
  api = await startApi();
  call = caller(api.app);
  const staffUser = await laoReviewer(api, 'arscale', [lao(3)]);
  staffId = staffUser.user.id;
  campaignId = (await openCampaign(api.prisma, [])).id;
  // 25,000 people with four records each, every record pooled to one of ten LAOs; the records are not in
  // UserAccess (access ids no record has), as if changed since the snapshot: the reads look them up all the same.
  await api.prisma.$executeRaw`
    INSERT INTO "AccessReviewItem" ("campaignId", "accessId", "portalUserId", "username", "firstName", "lastName",
      "email", "roleName", "siteCodes", "laoIds", "studyNames", "systemAccessIds", "reviewLaoIds")
    SELECT ${campaignId}::int, 1000000000 + g, 1000000 + g / 4, 'scale' || (g / 4), 'First' || (g / 4 % 97),
           'Last' || lpad((g / 4 % 5000)::text, 4, '0'), 'scale' || (g / 4) || '@it.portal.test',
           (ARRAY['Data Manager', 'Clinical Research Associate', 'Study Chair', 'Statistician'])[g % 4 + 1],
           ARRAY[]::text[], ARRAY[${prefix}::text || (g % ${LAOS}::int)], ARRAY['Study A'], ARRAY[1],
           ARRAY[${prefix}::text || (g % ${LAOS}::int)]
      FROM generate_series(0, ${TOTAL - 1}::int) g`;
  await api.prisma.$executeRaw`ANALYZE "AccessReviewItem"`;
  support = await signIn(api.app, 'reviewer');
  staff = await signIn(api.app, staffUser.username, staffUser.password);
}, 240_000);

afterAll(async () => {
  if (campaignId) await api.prisma.accessReviewCampaign.delete({ where: { id: campaignId } });
  await api?.close();
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}
const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

async function planOf(sql: Prisma.Sql): Promise<PlanNode[]> {
  const [row] = await api.prisma.$queryRawUnsafe<[{ 'QUERY PLAN': [{ Plan: PlanNode }] }]>(
    `EXPLAIN (FORMAT JSON) ${sql.text}`,
    ...sql.values,
  );
  return nodes(row['QUERY PLAN'][0]!.Plan);
}

describe('a campaign of 100,000 items', () => {
  it('a page of 50 for User Support and for LAO staff, with their exact totals', async () => {
    const url = `/rest/secure/access_review/items?campaignId=${campaignId}&size=50`;
    expect((await call(support, 'GET', url)).json()).toMatchObject({ totalElements: TOTAL, numberOfElements: 50 });
    expect((await call(staff, 'GET', url)).json()).toMatchObject({ totalElements: TOTAL / LAOS, numberOfElements: 50 });
    const last = (await call(staff, 'GET', `${url}&page=${TOTAL / LAOS / 50}`)).json();
    expect(last).toMatchObject({ numberOfElements: 50, last: true });
  });

  it('any page, read from the start, walked in person order or read from the end, holds the rows of that order', async () => {
    // The person order with the id as the last key, as a plain statement reads it.
    const expected = async (pool: string | null, page: number) =>
      (
        await api.prisma.$queryRaw<{ id: number }[]>`
          SELECT i."id" FROM "AccessReviewItem" i
           WHERE i."campaignId" = ${campaignId} AND i."decision" IS NULL
             AND (${pool}::text IS NULL OR i."reviewLaoIds" && ARRAY[${pool}::text])
           ORDER BY i."lastName", i."firstName", i."portalUserId", i."roleName", i."id"
           LIMIT 50 OFFSET ${(page - 1) * 50}`
      ).map((r) => r.id);
    const url = `/rest/secure/access_review/items?campaignId=${campaignId}&size=50`;
    const pageIds = async (who: Session, page: number) =>
      ((await call(who, 'GET', `${url}&page=${page}`)).json().content as { id: number }[]).map((i) => i.id);
    // LAO staff of one LAO in ten: their pool is a tenth of the campaign, so deep pages walk the person index;
    // pages past the middle are read from the end.
    for (const page of [2, 99, 100, 101, 160, TOTAL / LAOS / 50]) {
      expect(await pageIds(staff, page), `LAO staff page ${page}`).toEqual(await expected(lao(3), page));
    }
    for (const page of [2, 1000, 1001, 1999, TOTAL / 50]) {
      expect(await pageIds(support, page), `User Support page ${page}`).toEqual(await expected(null, page));
    }
    const walked = pagePlanOf({ page: 150, size: 50 }, TOTAL / LAOS, TOTAL, { support: false, laoIds: [lao(3)] });
    expect(walked).toEqual({ window: { offset: 2500, limit: 50, reversed: true }, walk: true });
    const sel = { campaignIds: [campaignId], userId: staffId, scope: { support: false, laoIds: [lao(3)] } };
    const plan = await planOf(itemsPageSql({ ...sel, state: 'UNDECIDED' }, { page: 150, size: 50 }, walked));
    const onItems = plan.filter((n) => n['Relation Name'] === 'AccessReviewItem').map((n) => n['Node Type']);
    expect(onItems).not.toContain('Seq Scan');
    expect(onItems).not.toContain('Bitmap Heap Scan');
  });

  it('reads the page and its count through the indexes: no sequential scan', async () => {
    for (const scope of [
      { support: true, laoIds: [] },
      { support: false, laoIds: [lao(3)] },
    ]) {
      const sel = { campaignIds: [campaignId], userId: staffId, scope, state: 'UNDECIDED' as const };
      const plan = await planOf(itemsPageSql(sel, { page: 1, size: 50 }));
      const onItems = plan.filter((n) => n['Relation Name'] === 'AccessReviewItem');
      expect(
        onItems.map((n) => n['Node Type']),
        JSON.stringify(scope),
      ).not.toContain('Seq Scan');
      const count = await planOf(itemsCountSql(sel));
      expect(count.filter((n) => n['Relation Name'] === 'AccessReviewItem').map((n) => n['Node Type'])).not.toContain(
        'Seq Scan',
      );
    }
  });

  it('the decisions CSV holds every item, in batches, with CRLF records', async () => {
    const admin = await signIn(api.app, 'admin');
    const res = await call(admin, 'GET', `/rest/secure/system_mgmt/access_reviews/${campaignId}/decisions.csv`);
    expect(res.statusCode).toBe(200);
    expect(res.body.startsWith('\uFEFFPerson,Username,')).toBe(true);
    const records = res.body.split('\r\n');
    expect(records.at(-1)).toBe('');
    expect(records).toHaveLength(TOTAL + 2);
    expect(res.body.replaceAll('\r\n', '')).not.toContain('\n');
    // Person order across the batches: Last0000 first, Last4999 last.
    expect(records[1]).toMatch(/^First\d+ Last0000,/);
    expect(records[TOTAL]).toMatch(/^First\d+ Last4999,/);
  });

  it('a bulk decision of 1,000 items by ids, each audited; 10,000 by filter; more by filter refused', async () => {
    const ids = (
      await api.prisma.accessReviewItem.findMany({
        where: { campaignId },
        select: { id: true },
        orderBy: { id: 'asc' },
        take: 1000,
      })
    ).map((i) => i.id);
    const res = await call(support, 'POST', '/rest/secure/access_review/decisions', {
      campaignId,
      itemIds: ids,
      decision: 'REMOVE',
      comment: 'Bulk',
    });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.json()).toMatchObject({ decided: 1000, refused: 0 });
    expect(
      await api.prisma.auditEvent.count({
        where: { action: 'ACCESS_REVIEW_DECIDED', workflowId: `access-review-${campaignId}` },
      }),
    ).toBe(1000);

    // LAO staff of one LAO in ten: 9,900 undecided items of theirs match (100 decided above).
    const byFilter = await call(staff, 'POST', '/rest/secure/access_review/decisions', {
      campaignId,
      filter: { state: 'UNDECIDED' },
      decision: 'KEEP',
    });
    expect(byFilter.statusCode, byFilter.body.slice(0, 300)).toBe(200);
    expect(byFilter.json()).toMatchObject({ decided: TOTAL / LAOS - 100, refused: 0 });
    const tooMany = await call(support, 'POST', '/rest/secure/access_review/decisions', {
      campaignId,
      filter: { state: 'ALL' },
      decision: 'KEEP',
    });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().fieldErrors).toEqual({ filter: ['size'] });
  });
});

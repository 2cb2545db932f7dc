/**
 * Access review campaigns at 100,000 access records (issue 25 "Failure and scale"; a benchmark script, not a
 * timed test), on a stack of its own (API and worker processes, PostgreSQL, Temporal):
 * - a campaign over 100,000 seeded access records: seconds from its POST until every item is stored and the
 *   campaign is open (target: within 60 s), beside the same rows copied by one INSERT … SELECT on PostgreSQL;
 * - a reviewer's page of 50 items (LAO staff of an LAO holding 10,000 of them; the first page and a deep one):
 *   p95 through the API one request at a time (target < 50 ms), beside the public health check's p95;
 * - a bulk decision of 1,000 items by id (target: answers within 2 s), beside a decision of one item;
 * - 10,000 removals applied by a closing campaign (the first CLOSING audit row to the last
 *   ACCESS_REMOVED_BY_REVIEW row) beside the same removals made one at a time through the access-records writer
 *   (`lockAndLoadAccess` + `applyAccessPlan` + an audit row per record) in a plain loop on equivalent records
 *   (target: at most 2× the loop).
 *
 *   cd tests && npx tsx --conditions=development bench/access-review.ts
 *
 * Prints one JSON object and exits 1 when a target is missed. Traffic stays on 127.0.0.1.
 */
import pg from 'pg';
import { type AccessReviewCampaign } from '@portal/contract';
import { applyAccessPlan, createPrisma, lockAndLoadAccess, poolConfigFromUrl } from '@portal/db';
import { runAlone, signIn, type BenchSession } from './stack';
import { keepAliveClient, percentile, timeAlternately } from './timing';
import type { ThrowawayStack } from '../support/throwaway-stack';

export const REVIEW_TARGETS = { snapshotSeconds: 60, pageP95Ms: 50, bulkSeconds: 2, removalRatio: 2 };
const RECORDS = Number(process.env.BENCH_REVIEW_RECORDS ?? 100_000);
const REMOVALS = Number(process.env.BENCH_REVIEW_REMOVALS ?? 10_000);
const TIMES = Number(process.env.BENCH_REVIEW_TIMES ?? 200);
/** Records per seeded person (one per study role: a person holds one active record per study role). */
const PER_PERSON = 5;
const ADMIN_URL = '/rest/secure/system_mgmt/access_reviews';
const ITEMS_URL = '/rest/secure/access_review/items';
const DECIDE_URL = '/rest/secure/access_review/decisions';

/**
 * `records` access records over `records / PER_PERSON` people `bench-<prefix>-<i>`, study roles
 * `<rolePrefix> 1..5`; one person in ten in LAO MA036 (the seeded LAO staff reviews them), of the others half
 * in one of 50 other LAOs and half at one of the seeded AOs (the snapshot finds their LAOs through the
 * LAO-site-study relations, as most access in a network is at AOs). @returns the role names.
 */
async function seedAccess(pool: pg.Pool, prefix: string, rolePrefix: string, records: number): Promise<string[]> {
  const people = Math.ceil(records / PER_PERSON);
  const { rows: aos } = await pool.query<{ siteCode: string }>(
    `SELECT DISTINCT "siteCode" FROM "SiteRelation" WHERE active ORDER BY 1`,
  );
  const aoCodes = aos.length ? aos.map((a) => a.siteCode) : ['BENCH-AO'];
  // The campaign's scope names study roles, which must exist (an unknown one is a 422).
  await pool.query(
    `INSERT INTO "StudyRole" ("roleName", "description") SELECT $1 || ' ' || k, 'A study role of the bench'
     FROM generate_series(1, ${PER_PERSON}) k`,
    [rolePrefix],
  );
  await pool.query(
    `INSERT INTO "PortalUser" ("username", "firstName", "lastName", "email", "organizationName", "updatedAt")
     SELECT 'bench-${prefix}-' || i, 'First' || (i % 997), 'Last' || md5('${prefix}' || i), 'bench-${prefix}-' || i || '@bench.test',
       'Bench Clinic', now()
     FROM generate_series(1, $1::int) i`,
    [people],
  );
  await pool.query(
    `INSERT INTO "UserAccess" ("portalUserId", "roleName", "siteCodes", "laoIds", "studyNames", "systemAccessIds",
       "createdBy", "lastModifiedBy")
     SELECT u."id", $2 || ' ' || k,
       CASE WHEN u.n % 10 <> 0 AND u.n % 2 = 1 THEN ARRAY[($3::text[])[1 + u.n % cardinality($3::text[])]] ELSE '{}' END,
       CASE WHEN u.n % 10 = 0 THEN '{MA036}'::text[] WHEN u.n % 2 = 1 THEN '{}'
            ELSE ARRAY['BENCH-LAO-' || (u.n % 50)] END,
       '{}', '{}', 'bench', 'bench'
     FROM (SELECT "id", row_number() OVER (ORDER BY "id") AS n FROM "PortalUser" WHERE "username" LIKE $1) u,
       generate_series(1, ${PER_PERSON}) k`,
    [`bench-${prefix}-%`, rolePrefix, aoCodes],
  );
  return Array.from({ length: PER_PERSON }, (_, k) => `${rolePrefix} ${k + 1}`);
}

/** Polls `check` every 200 ms until it answers a value; @throws after `seconds`. */
async function until<T>(what: string, seconds: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${seconds} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function post(base: string, s: BenchSession, url: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { ...s.headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${url} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** Starts a campaign over `roleNames` (User Support and LAO staff review); @returns its id. */
async function startCampaign(base: string, admin: BenchSession, name: string, roleNames: string[]): Promise<number> {
  const body = { name, scope: { roleNames }, reviewers: 'LAO_STAFF', durationDays: 14, reminderEveryDays: 0 };
  return ((await post(base, admin, ADMIN_URL, body)) as AccessReviewCampaign).id;
}

const statusOf = async (pool: pg.Pool, id: number): Promise<string> =>
  (await pool.query<{ status: string }>(`SELECT "status" FROM "AccessReviewCampaign" WHERE "id" = $1`, [id])).rows[0]!
    .status;

/** Item ids of campaign `id` without a decision, `n` of them. */
const undecidedIds = async (pool: pg.Pool, id: number, n: number): Promise<number[]> =>
  (
    await pool.query<{ id: number }>(
      `SELECT "id" FROM "AccessReviewItem" WHERE "campaignId" = $1 AND "decision" IS NULL ORDER BY "id" LIMIT $2`,
      [id, n],
    )
  ).rows.map((r) => r.id);

/** The four figures of issue 25 "Failure and scale", each with its baseline. */
export async function measureAccessReviews(stack: ThrowawayStack) {
  const base = stack.urls.portal;
  const pool = new pg.Pool({ ...poolConfigFromUrl(stack.urls.database), max: 2 });
  const prisma = createPrisma(stack.urls.database);
  try {
    const roles = await seedAccess(pool, 'ar', 'Bench Role', RECORDS);
    const removalRoles = await seedAccess(pool, 'arx', 'Bench Removal', REMOVALS);
    await seedAccess(pool, 'arl', 'Bench Loop', REMOVALS);
    await pool.query('VACUUM ANALYZE "UserAccess"');
    await pool.query('VACUUM ANALYZE "PortalUser"');
    const admin = await signIn(base, 'admin');
    const laostaff = await signIn(base, 'laostaff');

    // 1. The snapshot, beside the same rows copied by one statement.
    const t0 = performance.now();
    const campaign = await startCampaign(base, admin, 'Bench campaign', roles);
    await until('campaign open', 600, async () => ((await statusOf(pool, campaign)) === 'OPEN' ? true : undefined));
    const snapshotSeconds = (performance.now() - t0) / 1000;
    const stored = Number(
      (await pool.query(`SELECT count(*) AS n FROM "AccessReviewItem" WHERE "campaignId" = $1`, [campaign])).rows[0].n,
    );
    const c0 = performance.now();
    await pool.query(
      `CREATE TEMP TABLE bench_copy AS SELECT a.*, u."username", u."firstName", u."lastName", u."email"
       FROM "UserAccess" a JOIN "PortalUser" u ON u."id" = a."portalUserId"
       WHERE NOT a."inactive" AND a."roleName" = ANY($1)`,
      [roles],
    );
    const oneStatementSeconds = (performance.now() - c0) / 1000;
    await pool.query('DROP TABLE bench_copy');

    // 2. The LAO staff's page of 50, the first and a deep one, beside the health check.
    const client = keepAliveClient(base, laostaff.headers);
    const [first, floor] = await timeAlternately(
      async () => void (await client.get(`${ITEMS_URL}?campaignId=${campaign}&size=50&page=1`)),
      async () => void (await client.get('/rest/public/health')),
      TIMES,
    );
    const [deep] = await timeAlternately(
      async () => void (await client.get(`${ITEMS_URL}?campaignId=${campaign}&size=50&page=150`)),
      async () => void (await client.get('/rest/public/health')),
      Math.ceil(TIMES / 2),
      5,
    );
    client.close();

    // 3. Bulk decisions of 1,000 items (User Support decides any), beside one item's.
    const bulk: number[] = [];
    const single: number[] = [];
    for (let round = 0; round < 5; round++) {
      const ids = await undecidedIds(pool, campaign, 1001);
      if (ids.length < 1001) break; // a small run (BENCH_REVIEW_RECORDS) has fewer rounds
      let t = performance.now();
      await post(base, admin, DECIDE_URL, { campaignId: campaign, itemIds: ids.slice(0, 1000), decision: 'KEEP' });
      bulk.push((performance.now() - t) / 1000);
      t = performance.now();
      await post(base, admin, DECIDE_URL, { campaignId: campaign, itemIds: ids.slice(1000), decision: 'KEEP' });
      single.push((performance.now() - t) / 1000);
    }

    // 4. 10,000 removals by a closing campaign, beside the same removals in a plain loop through the writer.
    const removal = await startCampaign(base, admin, 'Bench removals', removalRoles);
    await until('removal campaign open', 600, async () =>
      (await statusOf(pool, removal)) === 'OPEN' ? true : undefined,
    );
    for (;;) {
      const ids = await undecidedIds(pool, removal, 1000);
      if (!ids.length) break;
      await post(base, admin, DECIDE_URL, {
        campaignId: removal,
        itemIds: ids,
        decision: 'REMOVE',
        comment: 'Bench: no longer on the study.',
      });
    }
    await post(base, admin, `${ADMIN_URL}/${removal}/close`, {});
    await until('removal campaign closed', 1800, async () =>
      (await statusOf(pool, removal)) === 'CLOSED' ? true : undefined,
    );
    const span = await pool.query<{ s: number; removed: string }>(
      `SELECT extract(epoch FROM max(r."at") - (SELECT min(c."at") FROM "AuditEvent" c
                WHERE c."entityType" = 'AccessReview' AND c."entityId" = $1 AND c."action" = 'CLOSING'))::float AS s,
              count(*) AS removed
       FROM "AuditEvent" r WHERE r."action" = 'ACCESS_REMOVED_BY_REVIEW' AND r."workflowId" = $2`,
      [String(removal), `access-review-${removal}`],
    );
    const campaignRemovalSeconds = span.rows[0]!.s;
    const loopRows = await pool.query<{ id: number; portalUserId: number }>(
      `SELECT "id", "portalUserId" FROM "UserAccess" WHERE NOT "inactive" AND "roleName" LIKE 'Bench Loop %' ORDER BY "id"`,
    );
    const l0 = performance.now();
    for (const row of loopRows.rows) {
      await prisma.$transaction(async (tx) => {
        const active = await lockAndLoadAccess(tx, row.portalUserId);
        const record = active.find((r) => r.id === row.id)!;
        const plan = { creates: [], replaces: [], removals: [record], stale: [] };
        const [change] = await applyAccessPlan(tx, row.portalUserId, plan, { username: 'bench' });
        await tx.auditEvent.create({
          data: {
            actorUsername: 'bench',
            entityType: 'UserAccess',
            entityId: String(row.portalUserId),
            action: 'ACCESS_REMOVED_BY_REVIEW',
            after: { accessId: row.id, newId: change!.newId },
            idempotencyKey: `bench-loop:${row.id}`,
          },
        });
      });
    }
    const loopSeconds = (performance.now() - l0) / 1000;

    return {
      itemsStored: stored,
      snapshotSeconds,
      oneStatementCopySeconds: oneStatementSeconds,
      pageFirstP95Ms: percentile(first, 95),
      pageDeepP95Ms: percentile(deep, 95),
      healthP95Ms: percentile(floor, 95),
      bulkMaxSeconds: Math.max(...bulk),
      bulkP50Seconds: percentile(bulk, 50),
      singleDecisionP50Seconds: percentile(single, 50),
      removed: Number(span.rows[0]!.removed),
      campaignRemovalSeconds,
      loopRemovals: loopRows.rows.length,
      loopRemovalSeconds: loopSeconds,
      removalRatio: campaignRemovalSeconds / loopSeconds,
    };
  } finally {
    await prisma.$disconnect();
    await pool.end();
  }
}

export type ReviewFigures = Awaited<ReturnType<typeof measureAccessReviews>>;

/** The targets issue 25 names that `r` missed, as readable lines. */
export function reviewsMissed(r: ReviewFigures): string[] {
  const missed: string[] = [];
  if (r.itemsStored < RECORDS) missed.push(`only ${r.itemsStored} of ${RECORDS} items stored`);
  if (!(r.snapshotSeconds <= REVIEW_TARGETS.snapshotSeconds)) missed.push(`snapshot ${r.snapshotSeconds.toFixed(1)} s`);
  if (!(Math.max(r.pageFirstP95Ms, r.pageDeepP95Ms) < REVIEW_TARGETS.pageP95Ms))
    missed.push(`reviewer page p95 ${Math.max(r.pageFirstP95Ms, r.pageDeepP95Ms).toFixed(1)} ms`);
  if (!(r.bulkMaxSeconds < REVIEW_TARGETS.bulkSeconds)) missed.push(`bulk decision ${r.bulkMaxSeconds.toFixed(2)} s`);
  if (r.removed < REMOVALS) missed.push(`only ${r.removed} of ${REMOVALS} removed`);
  if (!(r.removalRatio <= REVIEW_TARGETS.removalRatio)) missed.push(`removals ${r.removalRatio.toFixed(2)}× the loop`);
  return missed;
}

const round = (v: number) => Math.round(v * 100) / 100;

/** The printed lines: every figure beside its target and its baseline. */
export const reviewLines = (r: ReviewFigures): string[] => [
  `campaign over ${r.itemsStored.toLocaleString('en')} records stored and open in ${round(r.snapshotSeconds)} s (target <= ${REVIEW_TARGETS.snapshotSeconds} s; one INSERT … SELECT of the same rows ${round(r.oneStatementCopySeconds)} s)`,
  `reviewer page of 50 p95 first ${round(r.pageFirstP95Ms)} ms, deep ${round(r.pageDeepP95Ms)} ms (target < ${REVIEW_TARGETS.pageP95Ms} ms; the health check p95 ${round(r.healthP95Ms)} ms)`,
  `bulk decision of 1,000 items max ${round(r.bulkMaxSeconds)} s, p50 ${round(r.bulkP50Seconds)} s (target < ${REVIEW_TARGETS.bulkSeconds} s; one item p50 ${round(r.singleDecisionP50Seconds)} s)`,
  `${r.removed.toLocaleString('en')} removals by the campaign ${round(r.campaignRemovalSeconds)} s, ${round(r.removalRatio)}× (target <= ${REVIEW_TARGETS.removalRatio}×) the same ${r.loopRemovals.toLocaleString('en')} one at a time through the writer ${round(r.loopRemovalSeconds)} s`,
];

runAlone(import.meta.url, 'bench-reviews', measureAccessReviews, (r) => ({
  targets: REVIEW_TARGETS,
  results: Object.fromEntries(Object.entries(r).map(([k, v]) => [k, round(v)])),
  lines: reviewLines(r),
  missed: reviewsMissed(r),
}));

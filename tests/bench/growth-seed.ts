/**
 * Seeding for the growth bench (issue 24 Growth): tops the bench stack's own database up to a number of
 * users, access-change requests and audit rows with set-based SQL (INSERT … SELECT generate_series), so a
 * million rows take seconds, not hours of API calls. One row in a hundred of each carries the word
 * RARE_TERM (a user's organisation, a request's last modifier, an audit row's action), for the filtered page
 * that matches 1 % of the rows.
 *
 * Seeded requests are resolved or open without a workflow behind them; `workflowStartedAt` is set so the
 * worker's reconciler leaves them alone.
 */
import type pg from 'pg';

/** The word one row in a hundred carries. */
export const RARE_TERM = 'rarefield';
/** A word no row carries. */
export const ABSENT_TERM = 'qqxzzyv';

/** Statuses of the seeded requests, per hundred: a few open in each status, most resolved. */
const STATUS_OF = `CASE
    WHEN i % 100 = 0 THEN 'NEW' WHEN i % 100 = 1 THEN 'IN_PROGRESS' WHEN i % 100 = 2 THEN 'PENDING_REVIEW'
    WHEN i % 100 = 3 THEN 'PENDING_OUTSIDE_ACTION' WHEN i % 100 < 60 THEN 'APPROVED' ELSE 'REJECTED' END`;

/** How many rows `table` holds (exactly). */
async function rowsOf(pool: pg.Pool, table: string): Promise<number> {
  return Number((await pool.query(`SELECT count(*)::bigint AS n FROM "${table}"`)).rows[0].n);
}

/**
 * Runs `insert(from, to)` over [from, to) in chunks of `chunk` rows, printing progress, so a long load shows
 * it is alive and no single statement holds millions of rows in its transition tables.
 */
async function inChunks(
  label: string,
  from: number,
  to: number,
  chunk: number,
  insert: (a: number, b: number) => Promise<void>,
): Promise<void> {
  const started = performance.now();
  for (let a = from; a < to; a += chunk) {
    await insert(a, Math.min(to, a + chunk));
    const done = Math.min(to, a + chunk) - from;
    console.log(`  ${label}: ${done.toLocaleString('en')} of ${(to - from).toLocaleString('en')} rows`);
  }
  console.log(`  ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** Tops PortalUser up to `target` rows (bench users `bench-user-<i>`). */
export async function seedUsers(pool: pg.Pool, target: number): Promise<void> {
  const have = await rowsOf(pool, 'PortalUser');
  await inChunks('users', have, target, 250_000, async (a, b) => {
    await pool.query(
      `INSERT INTO "PortalUser" ("username", "firstName", "lastName", "email", "organizationName", "phoneNumber",
         "updatedAt")
       SELECT 'bench-user-' || i, 'First' || (i % 9973), 'Last' || md5(i::text), 'bench-user-' || i || '@bench.test',
         CASE WHEN i % 100 = 7 THEN 'Rarefield Clinic' ELSE 'Clinic ' || (i % 500) END, '555' || lpad(i::text, 7, '0'),
         now()
       FROM generate_series($1::int, $2::int - 1) i`,
      [a, b],
    );
  });
}

/** Tops AccessModRequest up to `target` rows, the subjects among the bench users, spread over ten years. */
export async function seedRequests(pool: pg.Pool, target: number): Promise<void> {
  const have = await rowsOf(pool, 'AccessModRequest');
  const users = await rowsOf(pool, 'PortalUser');
  await inChunks('requests', have, target, 200_000, async (a, b) => {
    await pool.query(
      `INSERT INTO "AccessModRequest" ("workflowId", "requestType", "requestStatus", "subjectUserId",
         "requesterUserId", "isProxyRequest", "accessControls", "lastModifiedBy", "sysdat", "dchng",
         "workflowStartedAt", "versionno")
       SELECT 'bench-access-change-' || i, 'NEW', (${STATUS_OF})::"RequestStatus", s, s, i % 10 = 0,
         '[{"roleName":"Data Manager","siteCodes":[],"laoIds":[],"studyNames":["Bench"],"systemAccessIds":[]}]',
         CASE WHEN i % 100 = 7 THEN 'rarefield-reviewer' ELSE 'bench-reviewer' END, t, t, t, 2
       FROM (SELECT i, now() - interval '10 years' + (i % 5000000) * interval '1 minute' AS t,
               1 + ((i::bigint * 7919) % $3::int)::int AS n
             FROM generate_series($1::int, $2::int - 1) i) g
       -- Subjects spread over every user (numbered, since ids may have gaps).
       JOIN (SELECT "id" AS s, row_number() OVER (ORDER BY "id") AS n FROM "PortalUser") u USING (n)`,
      [a, b, users],
    );
  });
}

/**
 * Gives a quarter of the seeded PENDING_REVIEW requests (one in 400 requests: a few thousand in a million) that have no
 * stage an
 * open approval stage 1 of 2, as the request's workflow leaves it (docs/decisions.md "Approval policies"): the
 * plan, the open-stage columns, the LAOs and studies, a deadline from five days ago to two weeks ahead, and its
 * two stage rows (stage 1 OPEN, stage 2 WAITING). A third each waits for LAO staff (one in five of those at
 * MA036, the seeded LAO staff's LAO; the others at one of 50 bench LAOs), for study approvers (study 'Bench',
 * which names none), and for User Support (escalated). Idempotent: a top-up stages the new requests only.
 */
export async function seedOpenStages(pool: pg.Pool): Promise<void> {
  const started = performance.now();
  const staged = await pool.query(
    `WITH picked AS (
       SELECT "id", CASE ("id" / 400) % 3 WHEN 0 THEN 'LAO_STAFF' WHEN 1 THEN 'STUDY_APPROVERS' ELSE 'USER_SUPPORT' END
                 AS grp,
              CASE WHEN ("id" / 1200) % 5 = 0 THEN 'MA036' ELSE 'BENCH-LAO-' || ("id" % 50) END AS lao
       FROM "AccessModRequest"
       WHERE ("id" / 100) % 4 = 0 AND "requestStatus" = 'PENDING_REVIEW' AND "approvalStage" IS NULL
         AND "workflowId" LIKE 'bench-access-change-%')
     UPDATE "AccessModRequest" a SET "approvalStage" = 1, "approvalGroup" = p.grp::"ApproverGroup",
       "approvalDeadline" = now() + (a."id" % 19 - 5) * interval '1 day',
       "approvalLaoIds" = ARRAY[p.lao], "approvalStudyNames" = ARRAY['Bench'],
       "approvalPlan" = jsonb_build_object('laoIds', jsonb_build_array(p.lao), 'studyNames', '["Bench"]'::jsonb,
         'stages', '[{"approvers":"LAO_STAFF","deadlineDays":5,"reminderDays":2,"escalateTo":"USER_SUPPORT","policyIds":[1]},
                     {"approvers":"STUDY_APPROVERS","deadlineDays":5,"reminderDays":2,"escalateTo":"USER_SUPPORT","policyIds":[1]}]'::jsonb)
     FROM picked p WHERE a."id" = p."id"`,
  );
  await pool.query(
    `INSERT INTO "AccessRequestStage" ("requestId", "stage", "approvers", "escalateTo", "approverGroup",
       "deadlineDays", "reminderDays", "state", "openedAt", "remindAt", "deadlineAt", "escalatedAt")
     SELECT a."id", k, (CASE k WHEN 1 THEN 'LAO_STAFF' ELSE 'STUDY_APPROVERS' END)::"ApproverGroup", 'USER_SUPPORT',
       (CASE WHEN k = 1 THEN a."approvalGroup"::text ELSE 'STUDY_APPROVERS' END)::"ApproverGroup", 5, 2,
       CASE k WHEN 1 THEN 'OPEN' ELSE 'WAITING' END,
       CASE k WHEN 1 THEN a."approvalDeadline" - interval '7 days' END,
       CASE k WHEN 1 THEN a."approvalDeadline" - interval '2 days' END,
       CASE k WHEN 1 THEN a."approvalDeadline" END,
       CASE WHEN k = 1 AND a."approvalGroup" = 'USER_SUPPORT' THEN a."approvalDeadline" END
     FROM "AccessModRequest" a, generate_series(1, 2) k
     WHERE a."approvalStage" IS NOT NULL AND a."workflowId" LIKE 'bench-access-change-%'
     ON CONFLICT DO NOTHING`,
  );
  console.log(`  open stages: ${staged.rowCount} requests, ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** Tops AuditEvent up to `target` rows, oldest first (ids and times rise together, as in life). */
export async function seedAudit(pool: pg.Pool, target: number): Promise<void> {
  const have = await rowsOf(pool, 'AuditEvent');
  await inChunks('audit rows', have, target, 500_000, async (a, b) => {
    await pool.query(
      `INSERT INTO "AuditEvent" ("at", "actorUsername", "entityType", "entityId", "action", "workflowId")
       SELECT now() - interval '10 years' + i * interval '30 seconds', 'bench-reviewer', 'AccessModRequest', i::text,
         CASE WHEN i % 100 = 7 THEN 'RAREFIELD_CHECK' ELSE 'STATUS_APPROVED' END, 'access-change-' || i
       FROM generate_series($1::int, $2::int - 1) i`,
      [a, b],
    );
  });
}

/**
 * Runs `load` with the secondary indexes of `tables` dropped (not primary keys, not unique ones), then builds
 * them again from their own definitions: building an index once is several times cheaper than inserting a
 * million rows into it one by one (the trigram indexes most of all). For the bench's own database only.
 */
export async function withoutSecondaryIndexes(
  pool: pg.Pool,
  tables: string[],
  load: () => Promise<void>,
): Promise<void> {
  const { rows } = await pool.query<{ name: string; def: string }>(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def
     FROM pg_index i WHERE i.indrelid = ANY($1::text[]::regclass[]) AND NOT i.indisprimary AND NOT i.indisunique`,
    [tables.map((t) => `"${t}"`)],
  );
  for (const r of rows) await pool.query(`DROP INDEX ${r.name}`);
  try {
    await load();
  } finally {
    const started = performance.now();
    for (const r of rows) await pool.query(r.def);
    console.log(`  ${rows.length} indexes rebuilt: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
}

/** The kept counts the filtered totals read (small, but a load changes them all at once). */
const KEPT_COUNTS = ['UserRequestQueueSharedCount', 'PortalUserOrganizationCount', 'AuditActionCount'];

/** Fresh statistics and visibility maps after a load (the steady state of a database in use). */
export async function settle(pool: pg.Pool): Promise<void> {
  const started = performance.now();
  for (const t of [
    'PortalUser',
    'AccessModRequest',
    'UserRequestQueue',
    'AuditEvent',
    'AccessRequestStage',
    ...KEPT_COUNTS,
  ]) {
    await pool.query(`VACUUM ANALYZE "${t}"`);
  }
  console.log(`  vacuum analyze: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

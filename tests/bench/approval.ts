/**
 * Approval policies (issue 42; a benchmark script, not a timed test), on a stack of its own (API and worker
 * processes, PostgreSQL, Temporal). Reports, in milliseconds:
 * - a two-stage approval beside two plain saves: a study role of the bench's own (created through the
 *   configuration API) with a policy of two stages (LAO staff, then study approvers; created by `admin` through
 *   POST /rest/secure/system_mgmt/approval_policies) and a study approver of its own (`forgetful`, PUT
 *   .../study/{id}/approvers). Each of BENCH_APPROVAL_CYCLES cycles (default 15) files, as `user`, a request
 *   without stages (run.ts's Data Manager block) and one for the bench's role at LAO MA036, waits for its stage
 *   1 to open, then times in turn (which pair goes first alternates): the two plain review saves of the first
 *   (IN_PROGRESS, then APPROVED, as run.ts) and the two stage decisions of the second (stage 1 by `laostaff`,
 *   the LAO staff of MA036, then stage 2 by the study approver; POST .../user_access_mod_request/{id}/stage),
 *   each call until its 200 (a 202 sent again with the same `attemptKey`). A pair's time is its two calls';
 *   the staged request is then resolved by User Support's save (untimed). Target: the staged pair's p50 at most
 *   1.1× the plain pair's; both pairs' p50 and p95 are printed.
 * - 'Awaiting my approval' (GET .../user_access_mod_request/awaiting_my_approval?page=1&size=25) at each size
 *   of BENCH_APPROVAL_SIZES (default 10,000, 100,000 and 1,000,000 requests): the database topped up with the
 *   growth bench's seeding (growth-seed.ts: users and requests, set-based SQL), a quarter of its PENDING_REVIEW
 *   requests (one request in 400: 2,500 in a million) given an open stage 1 of 2 with their stage rows
 *   (`seedOpenStages`: a third each waiting for LAO staff, for study approvers and escalated to User Support),
 *   then timed through the API for LAO staff (`laostaff`) and for User Support (`reviewer`), in turn call by
 *   call with the queue's first page (user_requests/all, as the growth bench times it) and with the route's own
 *   two statements run on PostgreSQL directly (printed only): p50 and p95, the median over
 *   BENCH_APPROVAL_ROUNDS rounds (default 3) of BENCH_APPROVAL_TIMES calls (default 200). Targets: p95 under
 *   50 ms at every size and the largest size within 1.5× the smallest (the growth bench's rule for the queue),
 *   the queue printed beside it. The open stages grow with the size (a share of the requests), so the last
 *   ratio reads how the page follows the open stages as much as the requests.
 *
 *   cd tests && npx tsx --conditions=development bench/approval.ts
 *
 * Prints the figures beside their targets, writes tests/artifacts/bench-approval.json and exits 1 when a target
 * is missed. The growth bench (growth.ts) seeds the same open stages and times the same route at its sizes.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { AccessReviewSettingsSchema } from '@portal/contract';
import { Prisma, type StageActor, poolConfigFromUrl } from '@portal/db';
import type { Deps } from '../../api/src/deps';
import { awaitingMyApproval } from '../../api/src/features/requests/access-change/awaiting';
import { seedOpenStages, seedRequests, seedUsers, settle, withoutSecondaryIndexes } from './growth-seed';
import type { ListFigure } from './growth-lists';
import { dataManagerBlock } from './role-block';
import { type BenchSession, signIn, startBenchStack, timedCall } from './stack';
import { keepAliveClient, median, percentile } from './timing';

const CYCLES = Number(process.env.BENCH_APPROVAL_CYCLES ?? 15);
const SIZES = (process.env.BENCH_APPROVAL_SIZES ?? '10000,100000,1000000').split(',').filter(Boolean).map(Number);
const TIMES = Number(process.env.BENCH_APPROVAL_TIMES ?? 200);
const ROUNDS = Number(process.env.BENCH_APPROVAL_ROUNDS ?? 3);
export const APPROVAL_TARGETS = { stagedToPlainP50Ratio: 1.1, awaitingP95Ms: 50, largestToSmallestRatio: 1.5 };

export const AWAITING_URL = '/rest/secure/user_access_mod_request/awaiting_my_approval?page=1&size=25';
const QUEUE_URL = '/rest/secure/user_management/user_requests/all?page=1&size=25&sort=dateSubmitted,desc';
const REVIEW_URL = '/rest/secure/user_management/review_access_change_request';
const stageUrl = (id: number) => `/rest/secure/user_access_mod_request/${id}/stage`;
/** The study approver the bench names (a demo account that is neither the requester nor the subject). */
const STUDY_APPROVER = 'forgetful';

/** Polls `check` every 50 ms until it answers a value; @throws after `seconds`. */
async function until<T>(what: string, seconds: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${seconds} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The bench's study role (the Data Manager's systems), its two-stage policy and its study's approver, all
 * through the configuration API as `admin`. @returns the block a staged request asks for.
 */
async function stagedPolicy(base: string, admin: BenchSession, approverUserId: number) {
  const call = (method: string, url: string, body?: unknown) => timedCall(base, admin, method, url, body);
  const plain = await dataManagerBlock(base);
  const role = (
    await call('POST', '/rest/secure/system_mgmt/study_role/', {
      roleName: 'Bench Staged Role',
      description: 'A study role of the approval bench, with a two-stage approval policy',
      systemAccessIds: plain.systemAccessIds,
    })
  ).json as { id: number; roleName: string };
  const studies = (await call('GET', '/rest/secure/system_mgmt/studies')).json as unknown as Array<{
    id: number;
    study: string;
  }>;
  const study = studies.find((s) => s.study === plain.studyNames[0])!;
  await call('PUT', `/rest/secure/system_mgmt/study/${study.id}/approvers`, { userIds: [approverUserId] });
  const stage = (approvers: string) => ({ approvers, deadlineDays: 5, reminderDays: 2, escalateTo: 'USER_SUPPORT' });
  await call('POST', '/rest/secure/system_mgmt/approval_policies', {
    studyRoleId: role.id,
    stages: [stage('LAO_STAFF'), stage('STUDY_APPROVERS')],
  });
  return { ...plain, roleName: role.roleName, laoIds: ['MA036'] };
}

/** Figure 1: the two stage decisions of a request beside two plain saves (see the module). */
export async function measureStagedApproval(base: string, databaseUrl: string, cycles = CYCLES) {
  const pool = new pg.Pool({ ...poolConfigFromUrl(databaseUrl), max: 1 });
  try {
    const call = (s: BenchSession, method: string, url: string, body?: unknown) =>
      timedCall(base, s, method, url, body);
    const [admin, user, reviewer, laostaff, approver] = await Promise.all([
      signIn(base, 'admin'),
      signIn(base, 'user'),
      signIn(base, 'reviewer'),
      signIn(base, 'laostaff'),
      signIn(base, STUDY_APPROVER),
    ]);
    const profileOf = async (s: BenchSession) =>
      ((await call(s, 'GET', '/rest/secure/user_profile')).json as { portalUserId: number }).portalUserId;
    const portalUserId = await profileOf(user);
    const stagedBlock = await stagedPolicy(base, admin, await profileOf(approver));
    const plainBlock = await dataManagerBlock(base);

    const file = async (block: unknown, i: number) =>
      (
        await call(user, 'POST', '/rest/secure/user_access_mod_request', {
          portalUserId,
          requestType: 'NEW',
          accessControls: [block],
          requesterComments: `approval bench ${i}`,
        })
      ).json.id as number;
    const save = (id: number, versionno: number, requestStatus: string) =>
      call(reviewer, 'PUT', REVIEW_URL, {
        userAccessModificationRequest: { id, versionno, requestStatus, reviewerComments: 'bench', sysaidTicket: '' },
        attemptKey: randomUUID(),
      });
    const decide = (s: BenchSession, id: number, stage: number, versionno: number) =>
      call(s, 'POST', stageUrl(id), {
        stage,
        decision: 'APPROVED',
        comment: 'bench',
        versionno,
        attemptKey: randomUUID(),
      });
    const openStage = async (id: number) =>
      (
        await pool.query<{ s: number | null }>(`SELECT "approvalStage" AS s FROM "AccessModRequest" WHERE "id" = $1`, [
          id,
        ])
      ).rows[0]?.s ?? null;

    // Each call's time, by call: the plain saves (IN_PROGRESS, APPROVED) and the stage decisions (1, 2).
    const calls = {
      inProgress: [] as number[],
      approved: [] as number[],
      stage1: [] as number[],
      stage2: [] as number[],
    };
    for (let i = 0; i < cycles; i++) {
      const plainId = await file(plainBlock, i);
      const stagedId = await file(stagedBlock, i);
      // The workflow opens stage 1 in an activity after the filing's answer.
      await until(`stage 1 of request ${stagedId} open`, 60, async () =>
        (await openStage(stagedId)) === 1 ? true : undefined,
      );
      const plainPair = async () => {
        calls.inProgress.push((await save(plainId, 0, 'IN_PROGRESS')).ms);
        calls.approved.push((await save(plainId, 1, 'APPROVED')).ms);
      };
      const stagedPair = async () => {
        // Opening a stage moves no version; each decision is one save (version 0, then 1).
        calls.stage1.push((await decide(laostaff, stagedId, 1, 0)).ms);
        calls.stage2.push((await decide(approver, stagedId, 2, 1)).ms);
      };
      for (const pair of i % 2 ? [stagedPair, plainPair] : [plainPair, stagedPair]) await pair();
      if ((await openStage(stagedId)) !== null) throw new Error(`request ${stagedId}: a stage still open`);
      // Resolved by User Support's final save (untimed), so the next cycle may ask again.
      await save(stagedId, 2, 'APPROVED');
    }
    const plainMs = calls.inProgress.map((ms, i) => ms + calls.approved[i]!);
    const stagedMs = calls.stage1.map((ms, i) => ms + calls.stage2[i]!);
    const plainP50Ms = percentile(plainMs, 50);
    const stagedP50Ms = percentile(stagedMs, 50);
    return {
      pairs: stagedMs.length,
      plainPairP50Ms: plainP50Ms,
      plainPairP95Ms: percentile(plainMs, 95),
      stagedPairP50Ms: stagedP50Ms,
      stagedPairP95Ms: percentile(stagedMs, 95),
      stagedToPlainP50Ratio: stagedP50Ms / plainP50Ms,
      // Printed only: each call's p50, and every call's time for the artifact.
      inProgressSaveP50Ms: percentile(calls.inProgress, 50),
      approvedSaveP50Ms: percentile(calls.approved, 50),
      stage1DecisionP50Ms: percentile(calls.stage1, 50),
      stage2DecisionP50Ms: percentile(calls.stage2, 50),
      callsMs: calls,
    };
  } finally {
    await pool.end();
  }
}

/** One timed page of figure 2: `ListFigure` (p95, the median over rounds) with the p50 beside it. */
export interface AwaitingFigure extends ListFigure {
  p50Ms: number;
}

/**
 * The two statements 'Awaiting my approval' runs for `actor` (its rows, then its count), built by the route's
 * own `awaitingMyApproval` over a stand-in for Prisma that keeps them: the SQL the API sends, values bound.
 */
async function awaitingStatements(actor: StageActor, reviewerStudyRole: string): Promise<Prisma.Sql[]> {
  const captured: Prisma.Sql[] = [];
  const $queryRaw = (strings: TemplateStringsArray, ...values: unknown[]) => {
    captured.push(Prisma.sql(strings, ...(values as Prisma.Sql[])));
    return Promise.resolve(captured.length === 1 ? [] : [{ n: 0 }]);
  };
  const deps = { cfg: { ACCESS_REVIEW_STUDY_ROLE: reviewerStudyRole }, prisma: { $queryRaw } };
  await awaitingMyApproval(deps as unknown as Deps, actor, { page: 1, size: 25 });
  return captured;
}

/**
 * Figure 2 at one size: 'Awaiting my approval' for LAO staff and for User Support through the API, the queue's
 * first page, and the route's two statements for each run one after the other as the route runs them on
 * PostgreSQL directly (a pg pool of its own, plain statements; printed beside the API, no target). Each in turn
 * call by call (a neighbour's burst falls on all alike), the API calls each over a kept-alive connection of its
 * own; `times` calls per round after `warmUp` untimed ones, `rounds` rounds; a figure's p50 and p95 are the
 * medians over the rounds. `size`: the seeded size, for the figures.
 */
export async function measureAwaiting(opts: {
  base: string;
  databaseUrl: string;
  reviewerStudyRole: string;
  laostaff: BenchSession;
  support: BenchSession;
  size: number;
  times: number;
  warmUp: number;
  rounds: number;
}): Promise<AwaitingFigure[]> {
  const pool = new pg.Pool({ ...poolConfigFromUrl(opts.databaseUrl), max: 1 });
  const clients: Array<ReturnType<typeof keepAliveClient>> = [];
  const api = (session: BenchSession, url: string) => {
    const client = keepAliveClient(opts.base, session.headers);
    clients.push(client);
    return async () => (JSON.parse((await client.get(url)).toString()) as { totalElements: number }).totalElements;
  };
  const sql = async (session: BenchSession) => {
    const userId = (
      (await timedCall(opts.base, session, 'GET', '/rest/secure/user_profile')).json as { portalUserId: number }
    ).portalUserId;
    const res = await fetch(`${opts.base}/rest/secure/user_capabilities/granted_permissions`, {
      headers: session.headers,
    });
    const permissions = (await res.json()) as string[];
    const [rows, count] = await awaitingStatements({ userId, permissions }, opts.reviewerStudyRole);
    return async () => {
      await pool.query(rows!.text, rows!.values);
      return Number((await pool.query<{ n: number }>(count!.text, count!.values)).rows[0]!.n);
    };
  };
  try {
    const views = [
      { list: 'awaiting', view: 'LAO staff', run: api(opts.laostaff, AWAITING_URL) },
      { list: 'awaiting', view: 'User Support', run: api(opts.support, AWAITING_URL) },
      { list: 'queue', view: 'all (beside awaiting)', run: api(opts.support, QUEUE_URL) },
      { list: 'awaiting-sql', view: 'LAO staff (SQL)', run: await sql(opts.laostaff) },
      { list: 'awaiting-sql', view: 'User Support (SQL)', run: await sql(opts.support) },
    ].map((v) => ({ ...v, p50s: [] as number[], p95s: [] as number[] }));
    const matching: number[] = [];
    for (const v of views) matching.push(await v.run());
    for (let round = 0; round < opts.rounds; round++) {
      for (let i = 0; i < opts.warmUp; i++) for (const v of views) await v.run();
      const ms = views.map((): number[] => []);
      for (let i = 0; i < opts.times; i++) {
        for (const [k, v] of views.entries()) {
          const started = performance.now();
          await v.run();
          ms[k]!.push(performance.now() - started);
        }
      }
      for (const [k, v] of views.entries()) {
        v.p50s.push(percentile(ms[k]!, 50));
        v.p95s.push(percentile(ms[k]!, 95));
      }
    }
    return views.map((v, k) => ({
      list: v.list,
      view: v.view,
      page: 'first' as const,
      size: opts.size,
      matching: matching[k]!,
      p50Ms: median(v.p50s),
      p95Ms: median(v.p95s),
    }));
  } finally {
    for (const c of clients) c.close();
    await pool.end();
  }
}

/** The targets figure 2 missed at `figures` (every size), as readable lines. */
export function awaitingMissed(figures: AwaitingFigure[]): string[] {
  const missed: string[] = [];
  for (const view of new Set(figures.filter((f) => f.list === 'awaiting').map((f) => f.view))) {
    const mine = figures.filter((f) => f.list === 'awaiting' && f.view === view).sort((a, b) => a.size - b.size);
    for (const f of mine)
      if (!(f.p95Ms < APPROVAL_TARGETS.awaitingP95Ms))
        missed.push(`awaiting (${view}) @${f.size}: p95 ${f.p95Ms.toFixed(1)} ms >= ${APPROVAL_TARGETS.awaitingP95Ms}`);
    const [small, large] = [mine[0], mine[mine.length - 1]];
    if (small && large && large !== small && !(large.p95Ms / small.p95Ms <= APPROVAL_TARGETS.largestToSmallestRatio))
      missed.push(
        `awaiting (${view}): ${(large.p95Ms / small.p95Ms).toFixed(2)}× from ${small.size} to ${large.size} > ${APPROVAL_TARGETS.largestToSmallestRatio}×`,
      );
  }
  return missed;
}

const round = (v: number) => Math.round(v * 100) / 100;

async function main(): Promise<void> {
  const started = performance.now();
  // PostgreSQL sized as the growth bench sizes it (deploy/README.md), for the same seeding.
  const stack = await startBenchStack('bench-approval', {
    ...process.env,
    POSTGRES_SHARED_BUFFERS: process.env.POSTGRES_SHARED_BUFFERS ?? '4GB',
  });
  const base = stack.urls.portal;
  const pool = new pg.Pool({ ...poolConfigFromUrl(stack.urls.database), max: 2 });
  try {
    const staged = await measureStagedApproval(base, stack.urls.database);
    console.log(`approval: ${staged.pairs} pairs timed (${((performance.now() - started) / 60_000).toFixed(1)} min)`);

    const reviewerStudyRole = AccessReviewSettingsSchema.parse(stack.portalEnv).ACCESS_REVIEW_STUDY_ROLE;
    const laostaff = await signIn(base, 'laostaff');
    const support = await signIn(base, 'reviewer');
    const figures: AwaitingFigure[] = [];
    for (const size of SIZES) {
      console.log(`approval: ${size.toLocaleString('en')} users and requests, open stages among them`);
      await withoutSecondaryIndexes(pool, ['PortalUser', 'AccessModRequest', 'UserRequestQueue'], async () => {
        await seedUsers(pool, size);
        await seedRequests(pool, size);
      });
      await seedOpenStages(pool);
      await settle(pool);
      figures.push(
        ...(await measureAwaiting({
          base,
          databaseUrl: stack.urls.database,
          reviewerStudyRole,
          laostaff,
          support,
          size,
          times: TIMES,
          warmUp: 5,
          rounds: ROUNDS,
        })),
      );
      console.log(`  awaiting timed (${((performance.now() - started) / 60_000).toFixed(1)} min so far)`);
    }
    const openStages = Number(
      (await pool.query(`SELECT count(*) AS n FROM "AccessModRequest" WHERE "approvalStage" IS NOT NULL`)).rows[0].n,
    );

    const missed = [
      !(staged.stagedToPlainP50Ratio <= APPROVAL_TARGETS.stagedToPlainP50Ratio) &&
        `two stage decisions p50 ${staged.stagedToPlainP50Ratio.toFixed(2)}× two plain saves > ${APPROVAL_TARGETS.stagedToPlainP50Ratio}×`,
      ...awaitingMissed(figures),
    ].filter((m): m is string => !!m);
    console.log('\ntwo stage decisions beside two plain saves (ms, a pair = its two calls)');
    console.table({
      'two plain saves (baseline)': { p50: round(staged.plainPairP50Ms), p95: round(staged.plainPairP95Ms) },
      'two stage decisions': { p50: round(staged.stagedPairP50Ms), p95: round(staged.stagedPairP95Ms) },
      'save IN_PROGRESS': { p50: round(staged.inProgressSaveP50Ms) },
      'save APPROVED': { p50: round(staged.approvedSaveP50Ms) },
      'stage 1 decision': { p50: round(staged.stage1DecisionP50Ms) },
      'stage 2 decision': { p50: round(staged.stage2DecisionP50Ms) },
    });
    console.log(
      `ratio of the p50s ${round(staged.stagedToPlainP50Ratio)}× (target <= ${APPROVAL_TARGETS.stagedToPlainP50Ratio}×), ${staged.pairs} pairs each`,
    );
    console.log(
      `\n'Awaiting my approval' beside the queue's first page (${openStages.toLocaleString('en')} open stages)`,
    );
    console.table(
      figures.map((f) => ({
        list: f.list,
        view: f.view,
        size: f.size.toLocaleString('en'),
        rows: f.matching,
        'p50 ms': round(f.p50Ms),
        'p95 ms': round(f.p95Ms),
        target: f.list === 'awaiting' ? `p95 < ${APPROVAL_TARGETS.awaitingP95Ms} ms` : '(beside it)',
      })),
    );
    const out = path.join(import.meta.dirname, '..', 'artifacts', 'bench-approval.json');
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(
      out,
      JSON.stringify(
        { at: new Date().toISOString(), sizes: SIZES, targets: APPROVAL_TARGETS, staged, openStages, figures, missed },
        null,
        2,
      ),
    );
    console.log(`approval bench: ${((performance.now() - started) / 60_000).toFixed(1)} min`);
    console.log(missed.length ? `targets missed: ${missed.join('; ')}` : 'all approval targets met');
    process.exitCode = missed.length ? 1 : 0;
  } finally {
    await pool.end();
    await stack.close();
  }
}

// Run alone (npm run bench, or the command above); growth.ts imports `measureAwaiting` without running it.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  });
}

/**
 * The proxy batch at 1,000 users (issue 12 Speed; a benchmark, not a timed test): end to end through the API
 * (POST .../proxy_batch, then GET .../proxy_batch/{id} until the batch is no longer RUNNING: every user's
 * request filed and its `access-change-<id>` workflow started, on the stack's own worker), beside a bare
 * workflow on the same Temporal server in the same run that runs 1,000 sequential no-op activities, each
 * starting one no-op workflow (proxy-batch-baseline.ts, on an in-process worker). Prints both wall times and
 * their ratio. Targets: ratio at most 2, the batch under 60 s.
 *
 *   cd tests && npx tsx --conditions=development bench/proxy-batch.ts      (its own stack)
 *
 * `npm run bench` (run.ts) calls `measureProxyBatch` on its stack.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker, bundleWorkflowCode } from '@temporalio/worker';
import { createPrisma } from '@portal/db';
import { runAlone, signIn } from './stack';
import { dataManagerBlock } from './role-block';

export const PROXY_BATCH_TARGETS = { batchToBaselineRatio: 2, batchMs: 60_000 };
const USERS = Number(process.env.BENCH_PROXY_USERS ?? 1000);

export interface ProxyBatchBench {
  users: number;
  batchMs: number;
  baselineMs: number;
  ratio: number;
  successes: number;
}

/** `users` fresh active users at one AO, each holding one record of another study role. */
async function createSubjects(databaseUrl: string, users: number): Promise<number[]> {
  const prisma = createPrisma(databaseUrl);
  try {
    const site = await prisma.site.findFirstOrThrow({ where: { siteType: 'AO' }, orderBy: { siteCode: 'asc' } });
    const tag = crypto.randomBytes(3).toString('hex');
    const rows = await prisma.portalUser.createManyAndReturn({
      data: Array.from({ length: users }, (_, i) => ({
        username: `bench${tag}${i}`,
        firstName: 'Bench',
        lastName: `User ${i}`,
        email: `bench${tag}${i}@bench.portal.test`,
      })),
      select: { id: true },
    });
    await prisma.userAccess.createMany({
      data: rows.map((r) => ({
        portalUserId: r.id,
        roleName: 'Clinical Research Associate',
        siteCodes: [site.siteCode],
        createdBy: 'bench',
        lastModifiedBy: 'bench',
      })),
    });
    return rows.map((r) => r.id);
  } finally {
    await prisma.$disconnect();
  }
}

/** The batch through the API, then the baseline on the same server. */
export async function measureProxyBatch(opts: {
  base: string;
  databaseUrl: string;
  temporalAddress: string;
  users?: number;
}): Promise<ProxyBatchBench> {
  const users = opts.users ?? USERS;
  const ids = await createSubjects(opts.databaseUrl, users);
  const proxy = await signIn(opts.base, 'laostaff');
  const headers = { ...proxy.headers, 'content-type': 'application/json' };
  const block = await dataManagerBlock(opts.base);

  const started = performance.now();
  const res = await fetch(`${opts.base}/rest/secure/user_access_mod_request/proxy_batch`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ portalUserIds: ids, accessControls: [block], requesterComments: 'bench' }),
  });
  if (res.status !== 200) throw new Error(`proxy batch answered ${res.status}: ${await res.text()}`);
  const { id } = (await res.json()) as { id: number };
  let batch: { status: string; summary: { numSuccesses: number } };
  for (;;) {
    const read = await fetch(`${opts.base}/rest/secure/user_access_mod_request/proxy_batch/${id}`, { headers });
    batch = (await read.json()) as typeof batch;
    if (batch.status !== 'RUNNING') break;
    if (performance.now() - started > 10 * 60_000) throw new Error('the batch ran longer than 10 minutes');
    await new Promise((r) => setTimeout(r, 200));
  }
  const batchMs = performance.now() - started;
  if (batch.status !== 'COMPLETED') throw new Error(`the batch ended ${batch.status}`);

  try {
    // The baseline worker's start-up chatter would bury the results (once per process; later calls throw).
    Runtime.install({ logger: new DefaultLogger('WARN') });
  } catch {
    // A runtime exists already: keep its logger.
  }
  const connection = await Connection.connect({ address: opts.temporalAddress });
  const native = await NativeConnection.connect({ address: opts.temporalAddress });
  const client = new Client({ connection, namespace: 'default' });
  const taskQueue = `bench-baseline-${crypto.randomBytes(4).toString('hex')}`;
  try {
    const worker = await Worker.create({
      connection: native,
      namespace: 'default',
      taskQueue,
      workflowBundle: await bundleWorkflowCode({
        workflowsPath: path.join(import.meta.dirname, 'proxy-batch-baseline.ts'),
        logger: { log() {}, info() {}, warn() {}, error() {}, debug() {}, trace() {} },
      }),
      activities: {
        async startNoop(i: number) {
          await client.workflow.start('noopWorkflow', { taskQueue, workflowId: `${taskQueue}-noop-${i}`, args: [] });
        },
      },
    });
    const baselineMs = await worker.runUntil(async () => {
      const t0 = performance.now();
      await client.workflow.execute('baselineBatchWorkflow', {
        taskQueue,
        workflowId: `${taskQueue}-batch`,
        args: [users],
      });
      return performance.now() - t0;
    });
    return { users, batchMs, baselineMs, ratio: batchMs / baselineMs, successes: batch.summary.numSuccesses };
  } finally {
    await connection.close();
    await native.close();
  }
}

/** The targets this measurement missed, as sentences (empty when met). */
export function proxyBatchMissed(r: ProxyBatchBench): string[] {
  return [
    r.ratio > PROXY_BATCH_TARGETS.batchToBaselineRatio &&
      `proxy batch ${r.ratio.toFixed(2)}× the bare workflow > ${PROXY_BATCH_TARGETS.batchToBaselineRatio}×`,
    r.batchMs > PROXY_BATCH_TARGETS.batchMs &&
      `proxy batch of ${r.users} users took ${(r.batchMs / 1000).toFixed(1)} s > ${PROXY_BATCH_TARGETS.batchMs / 1000} s`,
  ].filter((m): m is string => typeof m === 'string');
}

runAlone(
  import.meta.url,
  'bench-proxy',
  (stack) =>
    measureProxyBatch({
      base: stack.urls.portal,
      databaseUrl: stack.urls.database,
      temporalAddress: stack.urls.temporalAddress,
    }),
  (r) => ({
    users: r.users,
    successes: r.successes,
    batchSeconds: Math.round(r.batchMs) / 1000,
    baselineSeconds: Math.round(r.baselineMs) / 1000,
    ratio: Math.round(r.ratio * 100) / 100,
    targets: PROXY_BATCH_TARGETS,
    missed: proxyBatchMissed(r),
  }),
);

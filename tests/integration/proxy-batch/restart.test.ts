/**
 * Proxy batches whose worker dies (REQUEST-LIFECYCLE "Proxy bulk batch", rule 1; issue 21 case 8), filed
 * through the API route on a task queue that only the test's own workers poll:
 * - a worker killed while it files a user (the kill lands inside that user's filing activity) ends, once
 *   restarted, with exactly one request and one workflow per selected user;
 * - a worker killed between a user's filing and the start of that user's request: after the restart the
 *   worker's scheduled reconciler (short grace and period by configuration) wins the race and starts the
 *   request as the batch would have, with `ProxyBatchId` and the batch's requester label;
 * - a batch whose workflow closed abnormally is stored ABORTED by the reconciler with the 001 §8 text;
 * - a row that throws does not end the reconciler's pass.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccessControl, PROXY_MESSAGES, type ProxyBatchDetail } from '@portal/contract';
import type { PortalUser, PrismaClient } from '@portal/db';
import { accessChangeWorkflowId, proxyBatchWorkflowId } from '@portal/workflows';
import { reconcileUnstartedRequests, startReconciler } from '@portal/worker';
import { type FaultProxy, startFaultProxy } from '../../support/fault-proxy';
import { type Session, type TestApi, caller, startApi } from '../harness';
import { type TemporalTestEnv, newWorker, uniqueQueue, until } from '../lifecycle/support';
import { killWorkerProcess, startWorkerProcess } from '../worker-process';
import {
  BATCH_URL,
  batchEnded,
  fileBatch as fileBatchAs,
  filingWaits,
  holdFilingLock,
  subjectsAt,
  type BatchStack,
  startBatchStack,
} from './support';

const PROXY_LABEL = 'Morgan Liaison (laostaff)';
const queue = uniqueQueue('proxy-batch-restart');
let api: TestApi;
let prisma: PrismaClient;
let env: TemporalTestEnv;
let block: AccessControl;
let laostaff: Session;
let laostaffUser: PortalUser;

let stack: BatchStack;

beforeAll(async () => {
  stack = await startBatchStack(queue);
  ({ api, prisma, env, block, laostaff, laostaffUser } = stack);
}, 120_000);

afterAll(async () => stack?.close());

/** Files a batch of `users` through `through`'s route, as laostaff. @returns its id. */
const fileBatch = (through: TestApi, users: readonly PortalUser[]) => fileBatchAs(through, laostaff, users, block);

const batchRow = (id: number) => prisma.proxyBatch.findUniqueOrThrow({ where: { id } });

/** Every selected user has exactly one request, marked started, whose own workflow runs with `ProxyBatchId`. */
async function oneRunningRequestPerUser(batchId: number, users: readonly PortalUser[]) {
  const requests = await prisma.accessModRequest.findMany({ where: { subjectUserId: { in: users.map((u) => u.id) } } });
  expect(requests.map((r) => r.subjectUserId).sort()).toEqual(users.map((u) => u.id).sort());
  for (const r of requests) {
    expect(r.workflowStartedAt).not.toBeNull();
    const d = await env.client.workflow.getHandle(accessChangeWorkflowId(r.id)).describe();
    expect(d.status.name).toBe('RUNNING');
    expect(d.typedSearchAttributes.get({ name: 'ProxyBatchId', type: 'KEYWORD' } as never)).toBe(String(batchId));
  }
  return requests;
}

/** The worker of the restart: in-process, on `queue`, until `done` settles. */
async function restartedWorker<T>(done: () => Promise<T>): Promise<T> {
  const worker = await newWorker(env, prisma, queue);
  return worker.runUntil(done);
}

describe('a worker killed in the middle of a batch', () => {
  it('ends, once restarted, with exactly one request and one workflow per selected user', async () => {
    const users = await subjectsAt(prisma, 'MA036', 40, 'pbkill');
    // User 20's filing waits for its lock, so the kill lands inside that user's filing activity.
    const release = await holdFilingLock(prisma, users[19]!.id);
    let child: ChildProcess | undefined;
    try {
      child = await startWorkerProcess(queue);
      const batchId = await fileBatch(api, users);
      await until(() => filingWaits(prisma, users[19]!.id), "the batch's filing of user 20", 60_000);
      expect((await batchRow(batchId)).processed).toBe(19);
      await killWorkerProcess(child);
      await release();
      expect((await batchRow(batchId)).processed).toBe(19);

      const batch = await restartedWorker(() => batchEnded(prisma, batchId, 120_000));
      expect(batch).toMatchObject({ status: 'COMPLETED', processed: 40, numSuccesses: 40, numFailures: 0 });
      expect(await oneRunningRequestPerUser(batchId, users)).toHaveLength(40);
    } finally {
      if (child) await killWorkerProcess(child);
      await release();
    }
  }, 240_000);
});

describe("a worker killed between a user's filing and the start of that user's request", () => {
  it("is restarted; its scheduled reconciler wins the race and starts the request as the batch's", async () => {
    const users = await subjectsAt(prisma, 'MA036', 3, 'pbrace');
    const [host, port] = api.cfg.TEMPORAL_ADDRESS.split(':');
    // The first worker reaches Temporal through a hop the test freezes: user 2 is filed (committed), and the
    // start of that user's request never arrives.
    const hop: FaultProxy = await startFaultProxy({ host: host!, port: Number(port) });
    let release = await holdFilingLock(prisma, users[1]!.id);
    let first: ChildProcess | undefined;
    let second: ChildProcess | undefined;
    try {
      first = await startWorkerProcess(queue, { TEMPORAL_ADDRESS: `127.0.0.1:${hop.port}` });
      const batchId = await fileBatch(api, users);
      await until(() => filingWaits(prisma, users[1]!.id), "the batch's filing of user 2", 60_000);
      hop.hang();
      await release();
      const item = () =>
        prisma.proxyBatchItem.findUniqueOrThrow({ where: { batchId_requestNum: { batchId, requestNum: 2 } } });
      await until(async () => (await item()).responseStatus === 200, "user 2's filing to commit", 30_000);
      // The hop closes without forwarding what it held: the start is lost with the worker.
      await hop.close();
      await killWorkerProcess(first);
      const requestId = (await item()).accessModRequestId!;
      expect((await prisma.accessModRequest.findUniqueOrThrow({ where: { id: requestId } })).workflowStartedAt).toBe(
        null,
      );

      // The restarted batch waits at user 2, so the restarted worker's reconciler starts that request first.
      release = await holdFilingLock(prisma, users[1]!.id);
      let output = '';
      second = await startWorkerProcess(queue, { RECONCILE_GRACE: '1s', RECONCILE_EVERY: '1s' });
      second.stdout!.on('data', (c: Buffer) => (output += c.toString()));
      await until(
        async () =>
          (await prisma.accessModRequest.findUniqueOrThrow({ where: { id: requestId } })).workflowStartedAt !== null,
        'the reconciler to start the request',
        60_000,
      );
      // The reconciler logs after it marks the row: its line may reach the pipe a moment later.
      const line = `reconciler: ${accessChangeWorkflowId(requestId)} had no confirmed start`;
      await until(async () => output.includes(line), "the reconciler's log line", 10_000);
      expect(
        await prisma.auditEvent.count({
          where: { entityId: String(requestId), action: 'WORKFLOW_RECONCILED', entityType: 'AccessModRequest' },
        }),
      ).toBe(1);
      const handle = env.client.workflow.getHandle(accessChangeWorkflowId(requestId));
      const described = await handle.describe();
      expect(described.typedSearchAttributes.get({ name: 'ProxyBatchId', type: 'KEYWORD' } as never)).toBe(
        String(batchId),
      );
      expect(await described.staticDetails()).toContain(
        `- Requested by: ${PROXY_LABEL}, proxy batch #${batchId} (portal user ${laostaffUser.id})`,
      );

      await release();
      expect(await batchEnded(prisma, batchId, 60_000)).toMatchObject({
        status: 'COMPLETED',
        processed: 3,
        numSuccesses: 3,
      });
      await oneRunningRequestPerUser(batchId, users);
    } finally {
      await hop.close();
      if (first) await killWorkerProcess(first);
      if (second) await killWorkerProcess(second);
      await release();
    }
  }, 300_000);
});

describe('a batch whose workflow closed abnormally', () => {
  it("is stored ABORTED by the worker's scheduled reconciler, with the 001 §8 text", async () => {
    const users = await subjectsAt(prisma, 'MA036', 2, 'pbclosed');
    const batchId = await fileBatch(api, users);
    const started = await batchRow(batchId);
    expect(started).toMatchObject({ status: 'RUNNING', processed: 0 });
    expect(started.workflowStartedAt).not.toBeNull();
    // Nobody polls the queue: the batch has filed nobody when operations staff terminate it.
    await env.client.workflow.getHandle(proxyBatchWorkflowId(batchId)).terminate('test: terminated by operations');

    const lines: string[] = [];
    const stop = startReconciler({
      prisma,
      client: env.client,
      taskQueue: queue,
      graceMs: 60_000,
      everyMs: 200,
      log: (m) => lines.push(m),
    });
    try {
      const batch = await batchEnded(prisma, batchId, 30_000);
      expect(batch).toMatchObject({
        status: 'ABORTED',
        abortedProcessing: true,
        abortStatusCode: null,
        abortStatusText: PROXY_MESSAGES.notSubmittedErrors,
        abortRequestNum: 1,
        processed: 0,
      });
      expect(batch.finishedAt).not.toBeNull();
    } finally {
      stop();
    }
    expect(lines.join('\n')).toContain(`${proxyBatchWorkflowId(batchId)} closed (TERMINATED)`);
    const res = await caller(api.app)(laostaff, 'GET', `${BATCH_URL}/${batchId}`);
    expect(res.json<ProxyBatchDetail>().summary).toMatchObject({
      abortedProcessing: true,
      abortStatusText: PROXY_MESSAGES.notSubmittedErrors,
      totalRequests: 2,
      numSuccesses: 0,
      numFailures: 0,
    });
  }, 60_000);
});

describe("the reconciler's pass", () => {
  it('goes on past a row that throws', async () => {
    const [host, port] = api.cfg.TEMPORAL_ADDRESS.split(':');
    // An API whose Temporal refuses: its batches are committed and their starts left to the reconciler.
    const down = await startFaultProxy({ host: host!, port: Number(port) });
    down.refuse();
    const lostStart = await startApi({ TEMPORAL_TASK_QUEUE: queue, TEMPORAL_ADDRESS: `127.0.0.1:${down.port}` });
    try {
      const ids = [
        await fileBatch(lostStart, await subjectsAt(prisma, 'MA036', 1, 'pbrow')),
        await fileBatch(lostStart, await subjectsAt(prisma, 'MA036', 1, 'pbrow')),
      ];
      for (const id of ids) expect((await batchRow(id)).workflowStartedAt).toBeNull();

      // The first batch's "started" mark throws.
      const faulty = prisma.$extends({
        query: {
          proxyBatch: {
            async update({ args, query }) {
              if (args.where.id === ids[0]) throw new Error('injected: the mark failed');
              return query(args);
            },
          },
        },
      }) as unknown as PrismaClient;
      const lines: string[] = [];
      const pass = (p: PrismaClient) =>
        reconcileUnstartedRequests({
          prisma: p,
          client: env.client,
          taskQueue: queue,
          graceMs: 0,
          log: (m) => lines.push(m),
        });
      const repaired = await pass(faulty);
      expect(repaired).toContain(proxyBatchWorkflowId(ids[1]!));
      expect(repaired).not.toContain(proxyBatchWorkflowId(ids[0]!));
      expect((await batchRow(ids[1]!)).workflowStartedAt).not.toBeNull();
      expect((await batchRow(ids[0]!)).workflowStartedAt).toBeNull();
      expect(lines.join('\n')).toContain('injected: the mark failed');

      // The next pass repairs it; both batches then run to their end.
      expect(await pass(prisma)).toContain(proxyBatchWorkflowId(ids[0]!));
      const ended = await restartedWorker(() => Promise.all(ids.map((id) => batchEnded(prisma, id, 60_000))));
      expect(ended.map((b) => [b.status, b.numSuccesses])).toEqual([
        ['COMPLETED', 1],
        ['COMPLETED', 1],
      ]);
    } finally {
      await lostStart.close();
      await down.close();
    }
  }, 120_000);
});

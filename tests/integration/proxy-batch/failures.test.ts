/**
 * The proxy batch with PostgreSQL failing under its worker (REQUEST-LIFECYCLE "Proxy bulk batch"; issue 12
 * "whatever crashed on the way"; issue 21: real faults through the product's own paths). The batch is filed
 * through the API's route; the worker reaches PostgreSQL through a fault proxy (tests/support/fault-proxy.ts)
 * that refuses connections (the database stopped) while the worker files the first user: that filing rolls
 * back whole (no request row, no outcome, no counter) and is retried once the database is back. Every selected
 * user ends with exactly one request, one CREATED audit row and one running workflow, and the summary counts
 * each user once. The worker killed mid-batch is in restart.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessControl } from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import { accessChangeWorkflowId } from '@portal/workflows';
import { withDatabaseBehindProxy } from '../../support/database-fault';
import { type Session, type TestApi } from '../harness';
import { type TemporalTestEnv, newWorker, uniqueQueue, until } from '../lifecycle/support';
import {
  batchEnded,
  fileBatch,
  filingWaits,
  holdFilingLock,
  subjectsAt,
  type BatchStack,
  startBatchStack,
} from './support';

const queue = uniqueQueue('proxy-batch-faults');
let api: TestApi;
let prisma: PrismaClient;
let env: TemporalTestEnv;
let block: AccessControl;
let laostaff: Session;

let stack: BatchStack;

beforeAll(async () => {
  stack = await startBatchStack(queue);
  ({ api, prisma, env, block, laostaff } = stack);
});

afterAll(async () => stack?.close());

describe('a proxy batch whose database goes away', () => {
  it('rolls a filing cut off by the outage back whole, retries it, and ends with one request and one workflow per user', async () => {
    const users = await subjectsAt(prisma, 'MA036', 3, 'pbfault');
    const first = users[0]!.id;
    await withDatabaseBehindProxy(api.cfg.DATABASE_URL, async ({ proxy, prisma: workerPrisma }) => {
      const worker = await newWorker(env, workerPrisma, queue);
      const batch = await worker.runUntil(async () => {
        // The first user's filing waits for its lock inside its transaction: the outage lands there.
        const release = await holdFilingLock(prisma, first);
        const batchId = await fileBatch(api, laostaff, users, block);
        await until(() => filingWaits(prisma, first), "the worker's filing of the first user waits", 30_000);
        proxy.refuse();
        await release();
        // The waiting session's client is gone: it gets the lock, cannot answer, and its transaction rolls back.
        await until(async () => !(await filingWaits(prisma, first)), 'the cut-off filing ended', 30_000);
        expect(await prisma.accessModRequest.count({ where: { subjectUserId: first } })).toBe(0);
        expect(
          await prisma.proxyBatchItem.findUniqueOrThrow({ where: { batchId_requestNum: { batchId, requestNum: 1 } } }),
        ).toMatchObject({ responseStatus: null, accessModRequestId: null });
        expect(await prisma.proxyBatch.findUniqueOrThrow({ where: { id: batchId } })).toMatchObject({
          status: 'RUNNING',
          processed: 0,
          numSuccesses: 0,
        });
        proxy.heal();
        return batchEnded(prisma, batchId, 60_000);
      });
      expect(batch).toMatchObject({ status: 'COMPLETED', processed: 3, numSuccesses: 3, numFailures: 0 });
      const requests = await prisma.accessModRequest.findMany({
        where: { subjectUserId: { in: users.map((u) => u.id) } },
        orderBy: { id: 'asc' },
      });
      expect(requests.map((r) => r.subjectUserId)).toEqual(users.map((u) => u.id));
      for (const r of requests) {
        expect(r.workflowStartedAt).not.toBeNull();
        const created = await prisma.auditEvent.count({
          where: { entityType: 'AccessModRequest', entityId: String(r.id), action: 'CREATED' },
        });
        expect(created).toBe(1);
        const described = await env.client.workflow.getHandle(accessChangeWorkflowId(r.id)).describe();
        expect(described.status.name).toBe('RUNNING');
      }
    });
  });
});

/**
 * The proxy batch with the database failing under it (REQUEST-LIFECYCLE "Proxy bulk batch"; issue 12 "whatever
 * crashed on the way"): a user's filing whose write statement fails rolls back whole (no request row, no
 * outcome, no counter) and is retried; a filing whose "started" mark fails after the request's workflow
 * started is retried without filing or starting it twice. Every selected user ends with exactly one request,
 * one CREATED audit row and one running workflow, and the summary counts each user once. The worker killed
 * mid-batch is in batch.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { AccessControl } from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import { accessChangeWorkflowId } from '@portal/workflows';
import { demoRequestParts } from '../fixtures';
import { type TemporalTestEnv, newWorker, uniqueQueue, until, useLifecycleStack } from '../lifecycle/support';
import { batchEnded, storeAndStartBatch, subjectsAt } from './support';

let env: TemporalTestEnv;
let prisma: PrismaClient;

useLifecycleStack((e, p) => {
  env = e;
  prisma = p;
});

interface Faults {
  /** The next this many filing writes (request row, audit row, outcome, counters) throw. */
  writes: number;
  /** The next this many "workflow started" marks throw. */
  marks: number;
  hits: { writes: number; marks: number };
}

const sqlText = (args: unknown): string => {
  const sql = (Array.isArray(args) ? args[0] : args) as { strings?: readonly string[]; text?: string };
  return sql.text ?? sql.strings?.join('?') ?? '';
};

/** The worker's Prisma client, with the raw statements of the filing failing as `faults` says. */
function faultyPrisma(faults: Faults): PrismaClient {
  return prisma.$extends({
    query: {
      async $executeRaw({ args, query }) {
        const text = sqlText(args);
        if (text.includes('INSERT INTO "AccessModRequest"') && faults.writes > 0) {
          faults.writes -= 1;
          faults.hits.writes += 1;
          throw new Error('injected: the filing write failed');
        }
        if (text.includes('SET "workflowStartedAt"') && faults.marks > 0) {
          faults.marks -= 1;
          faults.hits.marks += 1;
          throw new Error('injected: the started mark failed');
        }
        return query(args);
      },
    },
  }) as unknown as PrismaClient;
}

describe('a proxy batch whose database writes fail', () => {
  it('rolls a failed filing back whole, retries it, and ends with one request and one workflow per user', async () => {
    const taskQueue = uniqueQueue('proxy-batch-faults');
    const block: AccessControl = (await demoRequestParts(prisma)).block;
    const proxy = await prisma.portalUser.findUniqueOrThrow({ where: { username: 'laostaff' } });
    const users = await subjectsAt(prisma, 'MA036', 3, 'pbfault');
    const faults: Faults = { writes: 2, marks: 1, hits: { writes: 0, marks: 0 } };
    const worker = await newWorker(env, faultyPrisma(faults), taskQueue);

    const batch = await worker.runUntil(async () => {
      const batchId = await storeAndStartBatch(prisma, env.client, taskQueue, proxy.id, users, block);
      await until(async () => faults.hits.writes >= 2, 'two failed filing writes', 30_000);
      // Nothing of the first user's filing survived the failed statement.
      expect(await prisma.accessModRequest.count({ where: { subjectUserId: users[0]!.id } })).toBe(0);
      expect(
        await prisma.proxyBatchItem.findUniqueOrThrow({ where: { batchId_requestNum: { batchId, requestNum: 1 } } }),
      ).toMatchObject({ responseStatus: null, accessModRequestId: null });
      expect(await prisma.proxyBatch.findUniqueOrThrow({ where: { id: batchId } })).toMatchObject({
        processed: 0,
        numSuccesses: 0,
      });
      return batchEnded(prisma, batchId, 60_000);
    });

    expect(faults.hits).toEqual({ writes: 2, marks: 1 });
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
  }, 90_000);
});

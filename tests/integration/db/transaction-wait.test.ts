/**
 * Filing while every pooled connection of the API's Prisma client is in use (api/src/shared/filing.ts): the
 * filing transaction waits for a connection as long as its own deadline (DATABASE_DEADLINE_MS), not Prisma's
 * default of 2 s. With the default, a profile change filed on a busy machine was answered 503 'Unable to
 * process new user-access modification request…' although nothing had failed (CI, directory-outage.test.ts).
 */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { createPrisma } from '@portal/db';
import type { WorkflowStart } from '@portal/workflows';
import { fileAndStart } from '../../../api/src/shared/filing';
import type { Deps } from '../../../api/src/deps';
import { until } from '../lifecycle/support';
import { stackEnv, testPrisma } from '../fixtures';

/** pg's default pool size, which the client's adapter keeps. */
const POOL_SIZE = 10;
/** How long (s) each of the queries that fill the pool runs: longer than Prisma's default wait of 2 s. */
const BUSY_SECONDS = 4;

describe('a filing while every pooled connection is in use', () => {
  it('waits for a connection beyond 2 s and commits once one is free', async () => {
    const prisma = createPrisma(stackEnv().DATABASE_URL!);
    const observer = testPrisma();
    const marker = `pool-busy-${process.pid}-${Date.now()}`;
    // A Temporal nobody answers: the start is left to the reconciler (DEFERRED), the filing still succeeds.
    const connection = Connection.lazy({ address: '127.0.0.1:9' });
    const deps = {
      prisma,
      temporal: new Client({ connection }),
      cfg: { TEMPORAL_TASK_QUEUE: `transaction-wait-${marker}` },
    } as unknown as Deps;
    try {
      // More queries than connections, so the pool is full and has waiters before the filing asks.
      // (A Prisma query runs once awaited: each is awaited in its own function, now.)
      const busy = Array.from({ length: POOL_SIZE + 2 }, async () =>
        prisma.$executeRawUnsafe(`SELECT pg_sleep(${BUSY_SECONDS}) /* ${marker} */`),
      );
      await until(async () => {
        const [row] = await observer.$queryRaw<Array<{ n: number }>>`
          SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE state = 'active' AND query LIKE ${`%${marker}%`} AND query NOT LIKE '%pg_stat_activity%'`;
        return row!.n === POOL_SIZE;
      }, 'every pooled connection running a busy query');
      const asked = Date.now();
      const filed = await fileAndStart(deps, {
        lock: { kind: 'PROFILE_CHANGE', id: 2_000_000_000 + crypto.randomInt(100_000_000) },
        insert: async (tx) => ({
          requestId: 0,
          result: await tx.$queryRaw<Array<{ one: number }>>`SELECT 1::int AS one`,
        }),
        start: () =>
          ({
            workflowType: 'none',
            workflowId: marker,
            args: [],
            searchAttributes: [],
            summary: '',
            details: '',
          }) as unknown as WorkflowStart,
        markStarted: async () => {},
      });
      expect(filed.result).toEqual([{ one: 1 }]);
      // It really waited for the busy queries: longer than Prisma's default wait.
      expect(Date.now() - asked).toBeGreaterThan(2_500);
      await Promise.all(busy);
    } finally {
      await connection.close().catch(() => undefined);
      await prisma.$disconnect();
      await observer.$disconnect();
    }
  });
});

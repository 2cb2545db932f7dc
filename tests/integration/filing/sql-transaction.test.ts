/**
 * The hot path's transactions (api/src/shared/sql.ts `inSqlTransaction`, issue 24 "Filing a request") while
 * PostgreSQL is frozen (its connections accepted, nothing answered): a transaction whose connection is not
 * there within the deadline is refused in time, and the connection PostgreSQL finally gives once it is back is
 * not kept checked out by nobody, so the pool is whole again and the next transaction runs.
 */
import { describe, expect, it } from 'vitest';
import { Prisma } from '@portal/db';
import { attachSqlPool, detachSqlPool, inSqlTransaction } from '../../../api/src/shared/sql';
import { withDatabaseBehindProxy } from '../../support/database-fault';
import { stackEnv } from '../fixtures';

const one = Prisma.sql`SELECT 1::int AS one`;

describe('a transaction on the filing pool while PostgreSQL is frozen', () => {
  it('is refused within its deadline, and the pool serves the next one once PostgreSQL is back', async () => {
    await withDatabaseBehindProxy(stackEnv().DATABASE_URL!, async ({ proxy, prisma, url }) => {
      // One connection per pool: a connection lost to nobody would stop every later transaction.
      const pools = attachSqlPool(prisma, url, () => {}, 1);
      try {
        proxy.hang();
        await expect(inSqlTransaction(prisma, (run) => run(one), { timeoutMs: 500 })).rejects.toThrow(
          'transaction not done within 500 ms',
        );
        proxy.heal();
        await expect(inSqlTransaction(prisma, (run) => run(one), { timeoutMs: 5_000 })).resolves.toEqual([{ one: 1 }]);
        expect(pools.writes.totalCount - pools.writes.idleCount, 'connections still checked out').toBe(0);
      } finally {
        proxy.heal();
        detachSqlPool(prisma);
        // A pool ends once its connections are back: bounded, so a connection kept by nobody fails above, not here.
        await Promise.race([pools.end(), new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
      }
    });
  });
});

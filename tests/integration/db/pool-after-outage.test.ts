/**
 * The product's Prisma client (`createPrisma`, as the API and the worker build theirs) after PostgreSQL went
 * away in the middle of a transaction (issue 21: nothing stuck by an outage): the connection the transaction
 * held must go back to the pool (or be discarded), so that once the database is back every caller is served.
 * Before the fix each such transaction kept its pooled connection forever: after as many outages as the pool
 * has connections, every query of that process waited forever, and `$disconnect()` never returned.
 */
import { describe, expect, it } from 'vitest';
import { createPrisma } from '@portal/db';
import { startFaultProxy, viaProxy } from '../../support/fault-proxy';
import { stackEnv } from '../fixtures';

/** A promise that rejects after `ms` naming `what`: a wait that gives up fails the test. */
const within = <T>(ms: number, what: string, p: Promise<T>): Promise<T> =>
  Promise.race([
    p,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms)),
  ]);

describe('a Prisma client whose database dropped its connections mid-transaction', () => {
  it('serves queries again once the database is back, however many transactions were cut off', async () => {
    const databaseUrl = new URL(stackEnv().DATABASE_URL!);
    const proxy = await startFaultProxy({ host: databaseUrl.hostname, port: Number(databaseUrl.port) });
    const prisma = createPrisma(viaProxy(databaseUrl.toString(), proxy));
    try {
      // More cut-off transactions than the pool has connections (pg's default is 10).
      for (let i = 0; i < 12; i++) {
        const tx = prisma.$transaction(async (t) => {
          await t.$queryRaw`SELECT 1`;
          proxy.refuse();
          await t.$queryRaw`SELECT 2`;
        });
        await expect(within(10_000, `cut-off transaction ${i}`, tx)).rejects.toThrow();
        proxy.heal();
      }
      const [row] = await within(
        10_000,
        'a query after the outages',
        prisma.$queryRaw<[{ ok: number }]>`SELECT 1 AS ok`,
      );
      expect(row.ok).toBe(1);
      await within(10_000, '$disconnect', prisma.$disconnect());
    } finally {
      proxy.heal();
      await proxy.close();
    }
  });
});

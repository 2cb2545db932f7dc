/**
 * The pg driver adapter with a transaction's connection never kept after a failed end (issue 21: nothing
 * stuck by an outage). Prisma's transaction manager ends a transaction by running COMMIT or ROLLBACK and only
 * then calling the adapter's commit()/rollback(), which hands the pooled connection back. When PostgreSQL
 * dropped the connection mid-transaction (stopped, restarted, a network cut), that COMMIT or ROLLBACK throws and
 * the connection is never handed back: after as many outages as the pool has connections every query of the
 * process waits forever. Here a failed COMMIT or ROLLBACK releases the connection with its error, so pg's pool
 * discards it; the error still reaches the caller (a COMMIT's outcome is then unknown: the lifecycle reads it
 * back, rule 2). Tested by tests/integration/db/pool-after-outage.test.ts.
 */
import type { PrismaPg } from '@prisma/adapter-pg';

type Adapter = Awaited<ReturnType<PrismaPg['connect']>>;
type Transaction = Awaited<ReturnType<Adapter['startTransaction']>>;
/** The adapter's transaction keeps its pooled client as `client` (pg's PoolClient). */
type WithClient = Transaction & { client?: { release(err?: Error | boolean): void } };

const ENDS = /^\s*(COMMIT|ROLLBACK)\s*$/i;

function releasingOnFailedEnd(tx: WithClient): Transaction {
  const executeRaw = tx.executeRaw.bind(tx);
  tx.executeRaw = async (query) => {
    try {
      return await executeRaw(query);
    } catch (err) {
      if (ENDS.test(query.sql)) tx.client?.release(err instanceof Error ? err : true);
      throw err;
    }
  };
  return tx;
}

/** Wraps `factory` (the adapter given to PrismaClient) so every transaction it starts releases as above. */
export function withReleasedTransactions(factory: PrismaPg): PrismaPg {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const start = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => releasingOnFailedEnd(await start(isolationLevel));
    return adapter;
  };
  return factory;
}

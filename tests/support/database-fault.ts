/**
 * PostgreSQL behind a fault proxy (./fault-proxy.ts) for a part of the product under test (a worker, an API),
 * through the product's own client factory (`createPrisma`, as api/src/main.ts and worker/src/main.ts build
 * theirs), while the test's own reads go to PostgreSQL directly.
 */
import { type PrismaClient, createPrisma } from '@portal/db';
import { type FaultProxy, proxyFor } from './fault-proxy';

export interface DatabaseBehindProxy {
  proxy: FaultProxy;
  /** A Prisma client reaching PostgreSQL through the proxy. */
  prisma: PrismaClient;
  /** `databaseUrl` through the proxy (DATABASE_URL of the part under test). */
  url: string;
  /** Heals and closes the proxy and the client. */
  close(): Promise<void>;
}

/** Puts PostgreSQL (`databaseUrl`) behind a new fault proxy, with a Prisma client through it. */
export async function openDatabaseBehindProxy(databaseUrl: string): Promise<DatabaseBehindProxy> {
  const { proxy, url } = await proxyFor(databaseUrl);
  const prisma = createPrisma(url);
  return {
    proxy,
    prisma,
    url,
    close: async () => {
      proxy.heal();
      await prisma.$disconnect();
      await proxy.close();
    },
  };
}

/** Runs `body` with PostgreSQL behind a new fault proxy (openDatabaseBehindProxy); closes it after, also on a throw. */
export async function withDatabaseBehindProxy<T>(
  databaseUrl: string,
  body: (db: DatabaseBehindProxy) => Promise<T>,
): Promise<T> {
  const db = await openDatabaseBehindProxy(databaseUrl);
  try {
    return await body(db);
  } finally {
    await db.close();
  }
}

/**
 * `promise`, failing the test when it is not settled within `withinMs`: a call to an API whose dependency is
 * away must be answered by the API's own deadline, never hang.
 */
export async function answered<T>(what: string, promise: Promise<T>, withinMs = 30_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} not answered within ${withinMs} ms`)), withinMs);
  });
  try {
    return await Promise.race([promise, hung]);
  } finally {
    clearTimeout(timer);
  }
}

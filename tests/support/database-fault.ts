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
}

/**
 * Runs `body` with PostgreSQL (`databaseUrl`) behind a new fault proxy; heals and closes the proxy and the
 * client afterwards, also when `body` throws.
 */
export async function withDatabaseBehindProxy<T>(
  databaseUrl: string,
  body: (db: DatabaseBehindProxy) => Promise<T>,
): Promise<T> {
  const { proxy, url } = await proxyFor(databaseUrl);
  const prisma = createPrisma(url);
  try {
    return await body({ proxy, prisma, url });
  } finally {
    proxy.heal();
    await prisma.$disconnect();
    await proxy.close();
  }
}

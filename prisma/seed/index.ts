/**
 * The demo seed: reference data, the research network, demo personas and generated users. Runs once per
 * database (recorded in SeedRun); a second start finds the record and seeds nothing.
 */
import { faker } from '@faker-js/faker';
import type { DirectoryConfig } from '@portal/directory';
import { ensureTree } from '@portal/directory';
import type { PrismaClient } from '../src';
import { seedNetwork } from './network';
import { seedCountries, seedRoles } from './reference';
import { seedDemoAccounts, seedGeneratedUsers } from './users';

export { DEMO_ACCOUNTS, type DemoAccount } from './users';

export const SEED_NAME = 'demo-v1';

/** Seeds an empty database. @returns false when this seed already ran. */
export async function runSeed(
  prisma: PrismaClient,
  dir: DirectoryConfig,
  opts: { generatedUsers: number; log?: (line: string) => void },
): Promise<boolean> {
  const log = opts.log ?? (() => {});
  if (await prisma.seedRun.findUnique({ where: { name: SEED_NAME } })) return false;
  faker.seed(20261121);
  await ensureTree(dir);
  log('seeding countries and subdivisions');
  await seedCountries(prisma);
  log('seeding systems, study roles and portal roles');
  await seedRoles(prisma);
  log('seeding the AO/LAO network and studies');
  const network = await seedNetwork(prisma, faker);
  log('seeding demo accounts (database and directory)');
  await seedDemoAccounts(prisma, dir, network);
  log(`seeding ${opts.generatedUsers} generated users`);
  await seedGeneratedUsers(prisma, faker, network, opts.generatedUsers);
  // Fresh statistics after the bulk load, as after any bulk load: the planner's first plans otherwise assume
  // empty tables until autovacuum gets round to them.
  await prisma.$executeRawUnsafe('ANALYZE');
  await prisma.seedRun.create({ data: { name: SEED_NAME } });
  return true;
}
export { PENDING_SEED_NAME, SEEDED_WORKFLOW_IDS, seedPendingRequests, type PendingSeeded } from './pending-requests';
export { DEMO_SECOND_FACTOR_USERS, DEMO_TOTP_SECRET, seedDemoSecondFactors } from './second-factors';
export { DEMO_LIS_NAME, DEMO_LIS_ROLES, registerDemoLis, type DemoLisRegistered } from './demo-lis';

/** CLI: `tsx prisma/seed/main.ts` seeds the database named by DATABASE_URL and the LDAP_* directory once. */
import { z } from 'zod';
import { DirectoryConfigSchema } from '@portal/directory';
import { createPrisma } from '../src';
import { registerDemoSystem, DemoSystemEnvSchema } from './demo-system';
import { DemoLisEnvSchema, registerDemoLis } from './demo-lis';
import { seedDashboardResources } from './dashboard-resources';
import { seedPendingRequests } from './pending-requests';
import { seedDemoSecondFactors } from './second-factors';
import { runSeed } from './index';

const Env = DirectoryConfigSchema.extend(DemoSystemEnvSchema.shape).extend({
  ...DemoLisEnvSchema.shape,
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'),
  SEED_GENERATED_USERS: z.coerce.number().int().min(0).max(100_000).default(2000),
  /** Leave a few requests of every kind pending (the review queue's demo); the test stacks turn it off. */
  SEED_PENDING_REQUESTS: z.enum(['true', 'false', '1', '0']).default('true'),
  /** Enrol the documented demo authenticator app for the staff personas (`npm run up` turns it on). */
  SEED_DEMO_SECOND_FACTORS: z.enum(['true', 'false', '1', '0']).default('false'),
  SECOND_FACTOR_KEY: z.string().min(32).optional(),
});

async function main(): Promise<void> {
  const parsed = Env.safeParse(process.env);
  if (!parsed.success) {
    throw new Error(
      `Invalid configuration:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`,
    );
  }
  const env = parsed.data;
  const prisma = createPrisma(env.DATABASE_URL);
  try {
    const ran = await runSeed(prisma, env, {
      generatedUsers: env.SEED_GENERATED_USERS,
      log: (l) => console.log(`seed: ${l}`),
    });
    console.log(ran ? 'seed: done' : 'seed: already seeded, nothing to do');
    // Once per database, also on one seeded before the dashboard's resources existed (issue 23).
    await seedDashboardResources(prisma, (l) => console.log(`seed: ${l}`));
    // Once per database; the worker's reconciler starts their workflows.
    if (['true', '1'].includes(env.SEED_PENDING_REQUESTS)) {
      await seedPendingRequests(prisma, (l) => console.log(`seed: ${l}`));
    }
    // Once per persona; the key is the data folder's (secrets.json), as the API's.
    if (['true', '1'].includes(env.SEED_DEMO_SECOND_FACTORS) && env.SECOND_FACTOR_KEY) {
      await seedDemoSecondFactors(prisma, env.SECOND_FACTOR_KEY, (l) => console.log(`seed: ${l}`));
    }
    // On every start, seeded before or not: the demo system's port and secret are the data folder's current ones.
    if (env.DEMO_SYSTEM_URL && env.DEMO_SYSTEM_CLIENT_ID && env.DEMO_SYSTEM_CLIENT_SECRET) {
      const demo = {
        url: env.DEMO_SYSTEM_URL,
        clientId: env.DEMO_SYSTEM_CLIENT_ID,
        secret: env.DEMO_SYSTEM_CLIENT_SECRET,
      };
      await registerDemoSystem(prisma, demo, (l) => console.log(`seed: ${l}`));
    }
    // On every start too: the demo laboratory system, and its connection when the stack runs its target.
    const target =
      env.DEMO_SCIM_URL && env.DEMO_SCIM_TOKEN && env.PROVISIONING_KEY
        ? { url: env.DEMO_SCIM_URL, token: env.DEMO_SCIM_TOKEN, key: env.PROVISIONING_KEY }
        : null;
    await registerDemoLis(prisma, target, (l) => console.log(`seed: ${l}`));
  } finally {
    await prisma.$disconnect();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});

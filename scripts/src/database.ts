/** Database steps of the local stack: Prisma migrations and the idempotent demo seed. */
import fs from 'node:fs';
import { binPath, repoPath } from './paths';
import { type Log, runToCompletion } from './procs';

/**
 * Applies pending Prisma migrations (`prisma migrate deploy` in prisma/, offline wasm engine).
 * @throws Error with Prisma's output when a migration fails.
 */
export async function migrateDatabase(databaseUrl: string, log: Log): Promise<void> {
  await runToCompletion({
    name: 'migrate',
    command: binPath('prisma'),
    args: ['migrate', 'deploy'],
    cwd: repoPath('prisma'),
    env: { ...process.env, DATABASE_URL: databaseUrl },
    log,
    // The pg pool of prisma.config.ts keeps the CLI alive ~10 s after it has finished.
    doneWhen: /^(All migrations have been successfully applied|No pending migrations to apply)\.?$/,
    // Prisma's banner and its note about the datasource url (unused with the driver adapter).
    mute: /^\s*$|Prisma config|Prisma schema loaded|Datasource "|datasource properties|^- url$|NOT be used|recommend you to remove/,
  });
}

/** The seed entry point (written in prisma/seed/; idempotent, so every start may run it). */
export const SEED_ENTRY = repoPath('prisma', 'seed', 'main.ts');

/**
 * Runs the demo seed with the stack's environment. Skips with a warning when prisma/seed/main.ts is absent.
 * @returns false when skipped.
 * @throws Error with the seed's output when it fails.
 */
export async function seedDatabase(env: NodeJS.ProcessEnv, log: Log): Promise<boolean> {
  if (!fs.existsSync(SEED_ENTRY)) {
    log(`warning: ${SEED_ENTRY} does not exist yet; skipping the demo seed`);
    return false;
  }
  await runToCompletion({
    name: 'seed',
    command: process.execPath,
    // From sources (the `development` export condition), like every dev tool: no build needed to seed.
    args: ['--conditions=development', '--import', 'tsx', SEED_ENTRY],
    cwd: repoPath(),
    env,
    log,
  });
  return true;
}

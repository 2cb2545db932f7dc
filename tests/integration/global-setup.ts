/**
 * Starts the real services once for the integration tests, in a throw-away data folder on free ports:
 * PostgreSQL (migrated and seeded), slapd, the SMTP catcher and a Temporal dev server. The worker and API
 * run in-process inside the tests. Everything is stopped at the end.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startStack } from '@portal/scripts/stack';
import { resolveTemporalBinary } from '@portal/scripts/temporal-binary';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-it-'));
  process.env.SEED_GENERATED_USERS ??= '120';
  const stack = await startStack({ dataDir, ports: 'random', seed: true, apps: false, log: () => {} });
  project.provide('stackEnv', {
    ...(stack.env as Record<string, string>),
    TEMPORAL_BIN: resolveTemporalBinary(),
    MAIL_API_URL: stack.urls.mailApi,
  });
  return async () => {
    await stack.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

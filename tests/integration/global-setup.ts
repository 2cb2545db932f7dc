/**
 * Starts the real services once for the integration tests, in a throw-away data folder on free ports:
 * PostgreSQL (migrated and seeded), slapd, the SMTP catcher and a Temporal dev server. The worker and API
 * run in-process inside the tests. Everything is stopped at the end.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { resolveTemporalBinary, startStack } from '@portal/scripts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-it-'));
  // PostgreSQL refuses to run as root and runs as its own user, which must reach its data folder.
  fs.chmodSync(dataDir, 0o755);
  process.env.SEED_GENERATED_USERS ??= '120';
  // The tests count the requests they file; the demo's pending requests are tested on their own.
  process.env.SEED_PENDING_REQUESTS ??= 'false';
  const stack = await startStack({
    dataDir,
    ports: 'random',
    seed: true,
    apps: false,
    handleSignals: false,
    log: () => {},
  });
  project.provide('stackEnv', {
    ...(stack.portalEnv as Record<string, string>),
    TEMPORAL_BIN: resolveTemporalBinary(),
    MAIL_API_URL: stack.urls.mailApi ?? stack.portalEnv.MAIL_UI_URL ?? '',
    // 000 §1: the test environment's single sign-on project id.
    SSO_PROJECT_ID: '119',
    // The rate limits count in PostgreSQL for every API the tests build (issue 24), as for every process of a
    // deployment: out of the way by default; a test of a limit sets it and counts from addresses of its own.
    RATE_LIMIT_SIGN_IN_MAX: '100000',
    RATE_LIMIT_FORGOT_PASSWORD_MAX: '100000',
  });
  return async () => {
    await stack.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

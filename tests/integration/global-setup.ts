/**
 * Starts the real services once for the integration tests, in a throw-away data folder on free ports:
 * PostgreSQL (migrated and seeded), slapd, the SMTP catcher and a Temporal dev server. The worker and API
 * run in-process inside the tests. Everything is stopped at the end.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { bundleWorkflowCode } from '@temporalio/worker';
import { createPrisma } from '@portal/db';
import { resolveTemporalBinary, startStack } from '@portal/scripts';
import { workflowsPath } from '@portal/worker';
import { WORKFLOW_TRACING_MODULE } from '@portal/workflows/telemetry';

/**
 * Bundles the workflow code from its sources once for the whole run and writes it to `file`: every
 * in-process worker of every file loads it (`workflowBundle: { codePath }`) instead of running webpack at
 * its own start, which took seconds of both cores per worker. Built from the sources, never from dist/, so a
 * workflow edited since the last build is the one tested. Holds the tracing interceptors, as the worker
 * process's bundle does (scripts/src/build.ts).
 */
async function bundleWorkflows(file: string): Promise<string> {
  const { code } = await bundleWorkflowCode({
    workflowsPath,
    workflowInterceptorModules: [WORKFLOW_TRACING_MODULE],
    logger: { log() {}, info() {}, warn() {}, error: console.error, debug() {}, trace() {} },
  });
  fs.writeFileSync(file, code);
  return file;
}

/**
 * Copies the seeded database, once and before any test file runs, into `<name>_template`, which no one may
 * connect to. The files that want a database of their own clone it (CREATE DATABASE ... TEMPLATE): PostgreSQL
 * refuses to copy a database while anyone else is connected to it, and the seeded one is always busy once the
 * files run, side by side. @returns the template's name.
 */
async function makeTemplate(databaseUrl: string): Promise<string> {
  const source = new URL(databaseUrl);
  const sourceName = source.pathname.slice(1);
  const template = `${sourceName}_template`;
  source.pathname = '/postgres';
  const admin = createPrisma(source.toString());
  try {
    // The seeding's own connections may still be closing: wait for them, not for a fixed time.
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        await admin.$executeRawUnsafe(`CREATE DATABASE "${template}" TEMPLATE "${sourceName}"`);
        break;
      } catch (err) {
        if (Date.now() > deadline) {
          throw new Error(`the seeded database ${sourceName} stayed in use for 60 s: no template copy`, { cause: err });
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    await admin.$executeRawUnsafe(`ALTER DATABASE "${template}" WITH ALLOW_CONNECTIONS false`);
  } finally {
    await admin.$disconnect();
  }
  return template;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-it-'));
  // PostgreSQL refuses to run as root and runs as its own user, which must reach its data folder.
  fs.chmodSync(dataDir, 0o755);
  process.env.SEED_GENERATED_USERS ??= '120';
  // The tests count the requests they file; the demo's pending requests are tested on their own.
  process.env.SEED_PENDING_REQUESTS ??= 'false';
  // The bundle is built while the services start (webpack on one core, the services mostly waiting).
  const bundled = bundleWorkflows(path.join(dataDir, 'workflow-bundle.js'));
  bundled.catch(() => undefined);
  const stack = await startStack({
    dataDir,
    ports: 'random',
    seed: true,
    apps: false,
    handleSignals: false,
    log: () => {},
  });
  let workflowBundle: string;
  let databaseTemplate: string;
  try {
    databaseTemplate = await makeTemplate(stack.portalEnv.DATABASE_URL!);
    workflowBundle = await bundled;
  } catch (err) {
    await stack.stop();
    throw err;
  }
  project.provide('stackEnv', {
    ...(stack.portalEnv as Record<string, string>),
    // A pristine copy of the seeded database, for cloneDatabase() (hostile/walker-support.ts).
    DATABASE_TEMPLATE: databaseTemplate,
    // The workflow code bundled once for every in-process worker (harness.ts, lifecycle/support.ts).
    WORKFLOW_BUNDLE: workflowBundle,
    TEMPORAL_BIN: resolveTemporalBinary(),
    MAIL_API_URL: stack.urls.mailApi ?? stack.portalEnv.MAIL_UI_URL ?? '',
    // 000 §1: the test environment's single sign-on project id.
    SSO_PROJECT_ID: '119',
    // The rate limits count in PostgreSQL for every API the tests build (issue 24), as for every process of a
    // deployment: out of the way by default; a test of a limit sets it and counts from addresses of its own.
    RATE_LIMIT_SIGN_IN_MAX: '100000',
    RATE_LIMIT_FORGOT_PASSWORD_MAX: '100000',
    // Staff must use a second factor in the product (issue 37); the suite's staff sign in with the password
    // alone, and the tests of the obligation build an API that names the permissions.
    SECOND_FACTOR_REQUIRED_PERMISSIONS: '',
    // The worker processes some tests start seal nothing on the shared database (a seal written meanwhile
    // would be a change the hostile walker does not expect); the seal tests run on copies of their own.
    AUDIT_SEAL_PRIVATE_KEY: '',
  });
  return async () => {
    await stack.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

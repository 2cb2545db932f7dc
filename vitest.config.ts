/**
 * Test projects: `unit` (beside the code, no services), `integration` and `integration-alone`
 * (tests/integration: real PostgreSQL, slapd, SMTP catcher and Temporal dev server started by the global setup,
 * once per project run; `integration` runs several files at once, `integration-alone` one at a time the files
 * of INTEGRATION_ALONE) and `web` (component tests of the browser app's shared shells in jsdom, HTTP mocked by
 * `web/src/testing`).
 */
import { defineConfig } from 'vitest/config';

/** How many integration files run at once (the `integration` project). */
const INTEGRATION_WORKERS = 3;

/**
 * The integration files that cannot share the test stack with files running beside them, run one at a time
 * by the `integration-alone` project (every other file of tests/integration runs in `integration`, several at
 * once). A new file goes here only for a reason written beside it: it stops, freezes or kills something other
 * files use, or it needs the shared data quiet.
 */
const INTEGRATION_ALONE = [
  // Ages every row of the unknown-name sign-in failures (one table for every API) and caps that table at
  // three names, counting all of its rows: beside other files it would reset or trim their unknown names'
  // countdowns, and their unknown names would break its count.
  'tests/integration/hostile/enumeration.test.ts',
  // Run the reconciler with no grace (reconcileUnstartedRequests with graceMs 0, or a scheduled one every
  // 200 ms): it starts every unstarted row of the shared database on this file's task queue, so beside other
  // files it would take their requests and batches a moment after their filing (which then run on a queue
  // their workers never poll), and they would take this file's unstarted rows before its own pass.
  'tests/integration/lifecycle/api.test.ts',
  'tests/integration/profile-change/api.test.ts',
  'tests/integration/proxy-batch/batch.test.ts',
  'tests/integration/proxy-batch/restart.test.ts',
  // Kills worker processes mid-campaign and waits for a snapshot to stop at a held row with deadlines of its
  // own: beside other files on a busy machine the snapshot twice never reached the held row in 90 s (alone,
  // the file passes in under a minute).
  'tests/integration/access-review/faults.test.ts',
  // Waits for its logout notices to be delivered by its own listener and worker: every reconciler pass and
  // worker process of the files beside it starts any unstarted notice on its own task queue, which that file
  // stops polling when it ends (a full run once left the notice undelivered).
  'tests/integration/sso/backchannel.test.ts',
  // Asserts the planner's choices, which follow the statistics of tables the files beside it keep filling
  // (with the queue just filled, a small table's scan and sort looked cheaper than an order's own index).
  'tests/integration/growth-explain.test.ts',
  // Rotates the provider's signing key in the shared database: the workers of files beside it would sign
  // logout tokens with a key their APIs' JWKS (loaded at start) does not hold yet.
  'tests/integration/sso/key-rotation.test.ts',
  // Runs the provisioning listener with no grace, which signals every unstarted provisioning notice of the shared
  // database on this file's task queue: beside other files it would take their notices onto a queue their
  // workers never poll (and they would take its own).
  'tests/integration/provisioning/convergence.test.ts',
  'tests/integration/provisioning/paths.test.ts',
];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{contract,workflows,api,worker,directory,scim,scripts,prisma}/src/**/*.test.ts'],
          // File after file in each test process: a new process per file spent half its time importing.
          isolate: false,
          // Both cores (vitest's default leaves one free on a 2-core machine): beside the integration files that
          // run alone, which mostly wait (scripts/src/test-run/main.ts, STAGES).
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          exclude: INTEGRATION_ALONE,
          globalSetup: ['tests/integration/global-setup.ts'],
          // Three times the one-at-a-time project's: a test shares the cores, PostgreSQL and the Temporal dev
          // server with two other files (the dev server's asynchronous deletes slow down the most); a test
          // still proves only what it asserts, never how fast.
          testTimeout: 180_000,
          hookTimeout: 240_000,
          // The files wait on I/O, Temporal and timers far more than they compute: several run at once on
          // the 2-core machine. Each scopes what it asserts to its own users, requests and names.
          maxWorkers: INTEGRATION_WORKERS,
          // Each of the three test processes runs file after file without starting again: a new process per
          // file imported the API, Prisma, oidc-provider and Temporal's native runtime again (a quarter of the
          // files' time). Every file closes what it starts (APIs, workers, clients) in its afterAll.
          isolate: false,
        },
      },
      {
        test: {
          name: 'integration-alone',
          include: INTEGRATION_ALONE,
          globalSetup: ['tests/integration/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 240_000,
          fileParallelism: false,
        },
      },
      {
        oxc: { jsx: { runtime: 'automatic' } },
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['web/src/**/*.test.tsx'],
          setupFiles: ['web/src/testing/setup.ts'],
          // Each of the two test processes runs file after file in one jsdom: a process and a jsdom per file
          // spent 40 % of the project's time starting (spawn, environment, setup) before any test ran.
          isolate: false,
          // Both cores (vitest's default leaves one free on a 2-core machine): beside the integration files that
          // run alone, which mostly wait (scripts/src/test-run/main.ts, STAGES).
          maxWorkers: 2,
          testTimeout: 60_000,
        },
      },
    ],
  },
});

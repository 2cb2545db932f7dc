/**
 * Browser journeys in Debian's Chromium (never a downloaded browser: ENVIRONMENT.md). The global setup
 * starts the whole stack (services, worker, API serving the built web app) on free ports and exports
 * PORTAL_URL, which the workers read when they load this config.
 *
 * Two workers run two lanes of journeys beside each other on the one stack, in two phases:
 * 1. 'queue-first': the journey that checks the reviewer queue's layout at 1280 px with its own request in
 *    the first row (access-change.spec.ts), before any other journey files a request (another's longer
 *    names would widen the queue), beside 'quiet': the session-timeout journeys, which file nothing and
 *    mostly wait.
 * 2. 'shared-data': the journeys that change or count what other journeys read (the demo personas' own
 *    requests and accounts, the configuration, MA036's and an AO's users under a campaign or a proxy
 *    batch), one file after the other as before; beside 'own-data': the journeys that act only on users,
 *    roles and requests they make themselves and look at the demo personas' screens without changing them.
 * The second phase's lanes are the first phase's `teardown` projects, not their dependents: Playwright
 * skips a project whose dependency failed, but runs a teardown project after its setup whatever the
 * outcome, so one failure in the first phase still leaves every other journey run.
 * A journey that starts changing shared data moves to SHARED_DATA.
 */
import { defineConfig } from '@playwright/test';

/** The first phase's journey that needs the reviewer queue to itself (see above). */
const QUEUE_FIRST = /requester files, reviewer approves, requester sees APPROVED/;
const QUIET = ['**/session-timeout.spec.ts'];

/** The journeys of the 'shared-data' lane (see above); every other journey runs in the 'own-data' lane. */
const SHARED_DATA = [
  'access-change.spec.ts', // the demo user's requests, the reviewer queue's first row, its mail
  'access-review-campaign.spec.ts', // a campaign over all of MA036's access, laostaff's mail
  'audit-trail.spec.ts', // files a request for the demo readonly
  'config-sso-client.spec.ts', // a new system in the reference data
  'configure.spec.ts', // portal roles, systems and study roles: the reference data
  'configure-reference.spec.ts', // the reference data's validators between two loads
  'password-expiry.spec.ts', // the demo expired and expiring accounts
  'phone.spec.ts', // the demo expired account's detail, a proxy request for an AO's user
  'proxy-batch.spec.ts', // requests for a few dozen of an AO's users
  'user-detail.spec.ts', // edits and deactivates the demo expired account
].map((file) => `**/${file}`);

const chromium = { browserName: 'chromium' as const };

export default defineConfig({
  testDir: './e2e',
  outputDir: './artifacts/test-results',
  globalSetup: './e2e/global-setup.ts',
  // A guard against a journey that hangs, not a speed check: the longest journey takes about a minute on a
  // quiet machine and three on one busy with other work (speed is `npm run bench`'s).
  timeout: 300_000,
  expect: { timeout: 15_000 },
  workers: 2,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  reporter: [
    ['list'],
    ['html', { outputFolder: './artifacts/report', open: 'never' }],
    // Per-journey durations for npm test's timing table (scripts/src/test-run).
    ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_FILE ?? './artifacts/report.json' }],
  ],
  use: {
    baseURL: process.env.PORTAL_URL,
    screenshot: 'on',
    // A failed journey keeps its trace (actions, DOM snapshots, network); without the screencast's frames,
    // which cost every journey CPU while they run (the failure's own screenshot is kept beside it).
    trace: { mode: 'retain-on-failure', screenshots: false },
    viewport: { width: 1280, height: 900 },
    // Transitions finish at once (the theme respects reduced motion), so axe measures colours as painted.
    contextOptions: { reducedMotion: 'reduce' },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    {
      name: 'queue-first',
      testMatch: '**/access-change.spec.ts',
      grep: QUEUE_FIRST,
      teardown: 'shared-data',
      workers: 1,
      use: chromium,
    },
    { name: 'quiet', testMatch: QUIET, teardown: 'own-data', workers: 1, use: chromium },
    { name: 'shared-data', testMatch: SHARED_DATA, grepInvert: QUEUE_FIRST, workers: 1, use: chromium },
    { name: 'own-data', testIgnore: [...SHARED_DATA, ...QUIET], workers: 1, use: chromium },
  ],
});

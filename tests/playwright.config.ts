/**
 * Browser journeys in Debian's Chromium (never a downloaded browser: ENVIRONMENT.md). The global setup
 * starts the whole stack (services, worker, API serving the built web app) on free ports and exports
 * PORTAL_URL, which the workers read when they load this config.
 *
 * Two workers run two lanes of journeys beside each other on the one stack:
 * - 'shared-data': the journeys that change or count what other journeys read (the demo personas' own
 *   requests and accounts, the configuration, MA036's and an AO's users under a campaign or a proxy batch),
 *   one file after the other;
 * - 'own-data': the journeys that act only on users, roles and requests they make themselves, look at the
 *   demo personas' screens without changing them, or (session-timeout.spec.ts) sign in on an API of their own.
 * The reviewer queue's layout check (access-change.spec.ts) filters the queue to the demo user's requests, so
 * the other lane's requests (with longer names) never widen the table it measures.
 * A journey that starts changing shared data moves to SHARED_DATA.
 */
import fs from 'node:fs';
import { defineConfig } from '@playwright/test';

/** The journeys of the 'shared-data' lane (see above); every other journey runs in the 'own-data' lane. */
const SHARED_DATA = [
  'access-change.spec.ts', // the demo user's requests, the reviewer queue's first row, its mail
  'access-review-campaign.spec.ts', // a campaign over all of MA036's access, laostaff's mail
  'approval-policy.spec.ts', // a policy and a study role in the configuration, laostaff's approvals of MA036
  'audit-trail.spec.ts', // files a request for the demo readonly
  'config-sso-client.spec.ts', // a new system in the reference data
  'configure.spec.ts', // portal roles, systems and study roles: the reference data
  'configure-reference.spec.ts', // the reference data's validators between two loads
  'password-expiry.spec.ts', // the demo expired and expiring accounts
  'phone.spec.ts', // the demo expired account's detail, a proxy request for an AO's user
  'proxy-batch.spec.ts', // requests for a few dozen of an AO's users
  'user-detail.spec.ts', // edits and deactivates the demo expired account
].map((file) => `**/${file}`);

/**
 * Journeys of the 'own-data' kind run in the 'shared-data' lane only to even out the two lanes' minutes (they
 * change nothing another journey reads, so either lane will do).
 */
const BALANCE = [
  'layout.spec.ts',
  'reports.spec.ts',
  // The 'own-data' lane took 561 s and 'shared-data' 372 s in a fresh-clone run: these three (84 s) even them.
  'registration.spec.ts',
  'profile-history.spec.ts',
  'audit-integrity.spec.ts',
].map((file) => `**/${file}`);

const chromium = { browserName: 'chromium' as const };

/**
 * Playwright tells Chromium to keep its shared memory in /tmp (`--disable-dev-shm-usage`), for containers
 * whose /dev/shm has 64 MB. On these machines /tmp is the disk and /dev/shm a large tmpfs: with 1 GiB free
 * there, Chromium keeps it in memory (two journey files took 134 CPU-seconds instead of 141, one run each).
 */
const SHM_IS_ROOMY = (() => {
  try {
    const shm = fs.statfsSync('/dev/shm');
    return shm.bavail * shm.bsize >= 2 ** 30;
  } catch {
    return false;
  }
})();

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
    // A failed journey keeps its trace (actions with their timing, console, network, sources), without the
    // screencast's frames and the DOM snapshots before and after every action: recorded for every journey and
    // thrown away when it passes, the snapshots cost a tenth of the journeys' CPU (two journey files: 122-124
    // CPU-seconds against 133-140). The failure's own screenshot and its page snapshot
    // (error-context.md) are kept beside the trace.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false },
    viewport: { width: 1280, height: 900 },
    // Transitions finish at once (the theme respects reduced motion), so axe measures colours as painted.
    contextOptions: { reducedMotion: 'reduce' },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      ignoreDefaultArgs: SHM_IS_ROOMY ? ['--disable-dev-shm-usage'] : [],
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
    { name: 'shared-data', testMatch: [...SHARED_DATA, ...BALANCE], workers: 1, use: chromium },
    { name: 'own-data', testIgnore: [...SHARED_DATA, ...BALANCE], workers: 1, use: chromium },
  ],
});

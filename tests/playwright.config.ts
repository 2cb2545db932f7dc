/**
 * Browser journeys in Debian's Chromium (never a downloaded browser: ENVIRONMENT.md). The global setup
 * starts the whole stack (services, worker, API serving the built web app) on free ports and exports
 * PORTAL_URL, which the workers read when they load this config.
 *
 * Two lanes, one worker each, run beside each other on the one stack:
 * - 'shared-data': the journeys that change or count what other journeys read (the demo personas' own
 *   requests and account, the reviewer queue's first rows, the configuration and its reference data, MA036's
 *   and an AO's users under a campaign or a proxy batch), one file after the other as before;
 * - 'own-data': the journeys that act only on users, roles and requests they make themselves and look at the
 *   demo personas' screens without changing them.
 * A journey that starts changing shared data moves to SHARED_DATA.
 */
import { defineConfig } from '@playwright/test';

/** The journeys of the 'shared-data' lane (see above); every other journey runs in the 'own-data' lane. */
const SHARED_DATA = [
  'access-change.spec.ts', // the demo user's requests, the reviewer queue's first row, its mail
  'access-review-campaign.spec.ts', // a campaign over all of MA036's access, laostaff's mail
  'audit-trail.spec.ts', // files a request for the demo readonly
  'config-sso-client.spec.ts', // a new system in the reference data
  'configure.spec.ts', // portal roles, systems and study roles: the reference data
  'configure-reference.spec.ts', // expects the reference data unchanged between two loads (304)
  'password-expiry.spec.ts', // the demo expired and expiring accounts
  'phone.spec.ts', // the demo expired account's detail, a proxy request for an AO's user
  'proxy-batch.spec.ts', // requests for a few dozen of an AO's users
  'user-detail.spec.ts', // edits and deactivates the demo expired account
].map((file) => `**/${file}`);

export default defineConfig({
  testDir: './e2e',
  outputDir: './artifacts/test-results',
  globalSetup: './e2e/global-setup.ts',
  timeout: 120_000,
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
    trace: 'retain-on-failure',
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
    { name: 'shared-data', testMatch: SHARED_DATA, workers: 1, use: { browserName: 'chromium' } },
    { name: 'own-data', testIgnore: SHARED_DATA, workers: 1, use: { browserName: 'chromium' } },
  ],
});

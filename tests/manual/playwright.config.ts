/**
 * `npm run manual:screens`: the user manual's screenshots (docs/manual/screens/*.png), taken in Debian's
 * Chromium from the demo stack. By default the e2e global setup starts a throw-away stack seeded with the demo
 * personas (the same data as `npm run up` on a fresh start, so the pictures do not depend on what anyone
 * clicked before); with PORTAL_URL set, the running stack at that address is used instead (MAIL_API_URL for
 * its mail catcher).
 */
import { defineConfig } from '@playwright/test';
import base from '../playwright.config';

export default defineConfig({
  ...base,
  testDir: '.',
  testMatch: 'screens.spec.ts',
  outputDir: '../artifacts/manual-results',
  globalSetup: process.env.PORTAL_URL ? undefined : '../e2e/global-setup.ts',
  reporter: [['list']],
  // One lane: the journeys' projects pick their spec files, which would leave this config's out.
  workers: 1,
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  timeout: 600_000,
  use: { ...base.use, screenshot: 'off', trace: 'off', viewport: { width: 1280, height: 800 } },
});

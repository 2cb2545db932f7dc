/**
 * Browser journeys in Debian's Chromium (never a downloaded browser: ENVIRONMENT.md). The global setup
 * starts the whole stack (services, worker, API serving the built web app) on free ports and exports
 * PORTAL_URL, which the workers read when they load this config.
 */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: './e2e',
  outputDir: './artifacts/test-results',
  globalSetup: './e2e/global-setup.ts',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  workers: 1,
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
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});

/**
 * Test projects: `unit` (beside the code, no services), `integration` (tests/integration: real
 * PostgreSQL, slapd, SMTP catcher and Temporal dev server started once by the global setup) and `web`
 * (component tests of the browser app's shared shells in jsdom, HTTP mocked by `web/src/testing`).
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{contract,workflows,api,worker,directory,scripts,prisma}/src/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
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
          testTimeout: 60_000,
        },
      },
    ],
  },
});

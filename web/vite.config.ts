import { defaultClientConditions, defineConfig, type PluginOption } from 'vite';
import react from '@vitejs/plugin-react';

// The API runs on 127.0.0.1:8080 (scripts/up.sh); in development Vite proxies /rest to it.
const apiTarget = process.env.PORTAL_API_URL ?? 'http://127.0.0.1:8080';

// @vitejs/plugin-react is hoisted to the root, where its types see the root's Vite (vitest's), not this
// workspace's Vite 7; the plugin itself supports both, so only its type needs this cast.
const reactPlugin = react() as unknown as PluginOption;

/**
 * Libraries every route needs, kept in one long-cached vendor chunk. Only what the shell loads anyway goes
 * here: a package that only lazy screens use (mantine-datatable, @mantine/dates) must stay in their chunks,
 * or the sign-in page would download it (issue 14, `npm run bench` checks the budget).
 */
const VENDOR_CHUNKS: Record<string, RegExp> = {
  react: /\/node_modules\/(react|react-dom|scheduler)\//,
  router: /\/node_modules\/(react-router|react-router-dom|cookie|set-cookie-parser)\//,
};

export default defineConfig({
  plugins: [reactPlugin],
  // The workspace packages export built files by default; the browser bundles their sources instead
  // (the `development` export condition), so a web build never waits for, nor ships, a stale dist/.
  resolve: { conditions: ['development', ...defaultClientConditions] },
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: { '/rest': { target: apiTarget, changeOrigin: false } },
  },
  preview: {
    host: '127.0.0.1',
    port: 4173,
    proxy: { '/rest': { target: apiTarget, changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    // No .map files are published with the app (issue 14); `vite build --sourcemap` makes them locally.
    sourcemap: false,
    // dist/.vite/manifest.json: which chunks and CSS each route loads (tests/bench measures the sign-in page).
    manifest: true,
    target: 'es2022',
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      output: {
        manualChunks(id) {
          for (const [name, test] of Object.entries(VENDOR_CHUNKS)) if (test.test(id)) return `vendor-${name}`;
          return undefined;
        },
      },
      onwarn(warning, warn) {
        // zod's sources carry /* @__PURE__ */ comments Rollup cannot place; harmless noise.
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('node_modules')) return;
        warn(warning);
      },
    },
  },
});

import { defaultClientConditions, defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The API runs on 127.0.0.1:8080 (scripts/up.sh); in development Vite proxies /rest to it.
const apiTarget = process.env.PORTAL_API_URL ?? 'http://127.0.0.1:8080';

/**
 * Chunks of what every route loads (Rolldown's `codeSplitting` groups; issue 14, `npm run bench` checks the
 * sign-in page's budget). React and the router are long-cached vendor chunks of their own; a group also takes
 * the modules its members import, so React has the higher priority and the router's group keeps only its own
 * packages. `shell` gathers everything else the entry imports statically (`$initial`: the sign-in page and
 * what it needs) into one chunk; left to itself Rolldown cuts that into a dozen small shared chunks, each
 * compressed on its own. Nothing that only lazy screens use (mantine-datatable, @mantine/dates, the charts)
 * is `$initial`, so none of it reaches the sign-in page.
 */
const CHUNK_GROUPS = [
  { name: 'vendor-react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 20 },
  {
    name: 'vendor-router',
    test: /[\\/]node_modules[\\/](react-router|react-router-dom|cookie|set-cookie-parser)[\\/]/,
    priority: 10,
  },
  { name: 'shell', tags: ['$initial' as const], priority: 0 },
];

export default defineConfig({
  plugins: [react()],
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
    rolldownOptions: { output: { codeSplitting: { groups: CHUNK_GROUPS } } },
  },
});

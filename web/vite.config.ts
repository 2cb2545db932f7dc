import { defineConfig, type PluginOption } from 'vite';
import react from '@vitejs/plugin-react';

// The API runs on 127.0.0.1:8080 (scripts/up.sh); in development Vite proxies /rest to it.
const apiTarget = process.env.PORTAL_API_URL ?? 'http://127.0.0.1:8080';

// @vitejs/plugin-react is hoisted to the root, where its types see the root's Vite (vitest's), not this
// workspace's Vite 7; the plugin itself supports both, so only its type needs this cast.
const reactPlugin = react() as unknown as PluginOption;

export default defineConfig({
  plugins: [reactPlugin],
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
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      onwarn(warning, warn) {
        // zod's sources carry /* @__PURE__ */ comments Rollup cannot place; harmless noise.
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('node_modules')) return;
        warn(warning);
      },
    },
  },
});

/**
 * `npm run bench`, first figure: builds the web app (Vite, into a temporary folder, so a running stack's
 * web/dist is left alone; BENCH_WEB_DIST measures an existing build instead) and prints the largest gzipped
 * file that any screen loads beside its target (issue 23 Speed: at most 200 KB). Exits 1 when it is over.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { largestChunk } from './bundle';

const TARGET_KB = 200;
const WEB = path.join(import.meta.dirname, '..', '..', 'web');

function build(): { dist: string; cleanup: () => void } {
  if (process.env.BENCH_WEB_DIST) return { dist: process.env.BENCH_WEB_DIST, cleanup: () => {} };
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-web-'));
  execFileSync('npx', ['vite', 'build', '--outDir', dist, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: WEB,
    stdio: 'inherit',
  });
  return { dist, cleanup: () => fs.rmSync(dist, { recursive: true, force: true }) };
}

const { dist, cleanup } = build();
try {
  const largest = largestChunk(dist);
  const kb = Math.round(largest.gzip / 102.4) / 10;
  const met = kb <= TARGET_KB;
  console.log(
    `largest chunk any screen loads: ${kb} KB gzip (${path.basename(largest.file)}), target at most ${TARGET_KB} KB: ${met ? 'met' : 'MISSED'}`,
  );
  process.exitCode = met ? 0 : 1;
} finally {
  cleanup();
}

/**
 * Loaded into a bench's API process (`node --expose-gc --import ./heap-probe.mjs main.js`) so a bench can read
 * its heap, which resident memory alone cannot tell apart from garbage V8 has not collected yet: samples
 * `process.memoryUsage()` every 10 ms and, on SIGUSR2, writes the peaks since the last signal, the figures
 * now and the figures after a full collection to $HEAP_PROBE_FILE (JSON, bytes), then starts new peaks.
 */
/* global process, setInterval */
import fs from 'node:fs';

const file = process.env.HEAP_PROBE_FILE;
let peak = {};
const sample = () => {
  const m = process.memoryUsage();
  for (const [k, v] of Object.entries(m)) peak[k] = Math.max(peak[k] ?? 0, v);
};
setInterval(sample, 10).unref();
process.on('SIGUSR2', () => {
  sample();
  const out = { peak, now: process.memoryUsage() };
  globalThis.gc?.();
  out.afterGc = process.memoryUsage();
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(out));
  fs.renameSync(`${file}.tmp`, file);
  peak = {};
});

/**
 * Temporal for the local stack: the CLI's dev server (frontend + Web UI in one process), persisted to a
 * SQLite file, with the portal's custom search attributes registered at start.
 */
import fs from 'node:fs';
import path from 'node:path';
import { searchAttributeLines } from '@portal/workflows/search-attributes';
import { waitForPort } from '../net';
import { clearStale, type ExitInfo, type Log, spawnManaged, untilReady } from '../procs';

export interface TemporalHandle {
  /** host:port of the frontend (gRPC), as TEMPORAL_ADDRESS. */
  address: string;
  uiUrl: string;
  /** Resolves when the server process exits (expectedly or not). */
  exited: Promise<ExitInfo>;
  stop(): Promise<void>;
}

/**
 * Starts `temporal server start-dev` with its database at `<dataDir>/temporal.db` and waits until the
 * frontend and the UI ports accept connections. A second start on the same file keeps all history.
 * @throws Error with the server's last output when it exits or does not listen within 90 s.
 */
export async function startTemporal(opts: {
  binary: string;
  dataDir: string;
  port: number;
  uiPort: number;
  /** The HTTP API's and the metrics' ports: planned with the stack's, never the dev server's random pick. */
  httpPort: number;
  metricsPort: number;
  namespace: string;
  log: Log;
}): Promise<TemporalHandle> {
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const pidFile = path.join(opts.dataDir, 'temporal.pid');
  await clearStale(pidFile, 'Temporal dev server', opts.log);
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(opts.port),
    '--ui-port',
    String(opts.uiPort),
    '--http-port',
    String(opts.httpPort),
    '--metrics-port',
    String(opts.metricsPort),
    '--db-filename',
    path.join(opts.dataDir, 'temporal.db'),
    // Eager activity execution: an activity scheduled by a workflow task goes back to the worker in that
    // task's answer instead of through a task queue poll. On these machines a sequential activity took about
    // 83 ms without it and 34 ms with it (the proxy batch is one activity per user). Histories do not change.
    '--dynamic-config-value',
    'system.enableActivityEagerExecution=true',
    // Write-ahead log, synced at checkpoints instead of every commit: each workflow task is a SQLite commit,
    // and syncing each one made the dev server the slowest part of every run (about 100 ms per sequential
    // activity). Still safe against a killed process; only an operating-system crash can lose the last commits.
    '--sqlite-pragma',
    'journal_mode=wal',
    '--sqlite-pragma',
    'synchronous=normal',
    '--namespace',
    opts.namespace,
    '--log-level',
    'warn',
    ...searchAttributeLines().flatMap((line) => ['--search-attribute', line]),
  ];
  const proc = spawnManaged({
    name: 'temporal',
    command: opts.binary,
    args,
    log: opts.log,
    pidFile,
    // The dev server warns about its own internal connections while it starts and stops.
    mute: /network dial error|Failed to poll for task|^\s*$/,
  });
  try {
    await untilReady(
      proc,
      (async () => {
        await waitForPort(opts.port, 'Temporal frontend', 90_000, '127.0.0.1', proc.isRunning);
        await waitForPort(opts.uiPort, 'Temporal Web UI', 90_000, '127.0.0.1', proc.isRunning);
      })(),
    );
  } catch (err) {
    await proc.stop();
    throw err;
  }
  return {
    address: `127.0.0.1:${opts.port}`,
    uiUrl: `http://127.0.0.1:${opts.uiPort}`,
    exited: proc.exited,
    stop: () => proc.stop(10_000),
  };
}

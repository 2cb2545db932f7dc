/**
 * The portal's own processes in the local stack: the Temporal worker and the API (which serves the web app),
 * run as built JavaScript (`node --enable-source-maps <pkg>/dist/main.js`, built by build.ts).
 * Once both are up, each runs under a supervisor (supervisor.ts) that restarts it with backoff when it dies.
 */
import fs from 'node:fs';
import type { RestartPolicy } from './backoff';
import { SERVICE_ENTRIES, buildServices } from './build';
import { waitForHttp } from './net';
import { repoPath } from './paths';
import { type Log, type ManagedProcess, spawnManaged, untilReady } from './procs';
import { supervise, type SupervisedProcess } from './supervisor';

export const WORKER_ENTRY = SERVICE_ENTRIES.worker;
export const API_ENTRY = SERVICE_ENTRIES.api;

export interface AppsHandle {
  worker: SupervisedProcess;
  api: SupervisedProcess;
  /** Stops both (SIGTERM, SIGKILL after 5 s) and cancels pending restarts. */
  stop(): Promise<void>;
}

function startBuilt(name: string, entry: string, env: NodeJS.ProcessEnv, log: Log): () => ManagedProcess {
  return () =>
    spawnManaged({
      name,
      command: process.execPath,
      args: ['--enable-source-maps', entry],
      cwd: repoPath(),
      env,
      log,
    });
}

/**
 * Builds what is stale (build.ts; nothing when `dist/` is up to date), starts the worker and the API with `env`, waits until `GET <portalUrl>/rest/public/health` answers 200,
 * then supervises both. A process that dies during start-up fails the start (a broken build should say so
 * at once, not loop); one that dies later is restarted with `policy` (default: 1 s doubling to 30 s).
 * @throws Error when the build fails, a process exits during start-up, or the API is not healthy
 *   within 120 s (everything started is stopped again first).
 */
export async function startApps(
  env: NodeJS.ProcessEnv,
  portalUrl: string,
  log: Log,
  policy?: RestartPolicy,
): Promise<AppsHandle> {
  await buildServices({ log: (line) => log(`[build] ${line}`) });
  for (const entry of [WORKER_ENTRY, API_ENTRY]) {
    if (!fs.existsSync(entry)) throw new Error(`${entry} does not exist: cannot start the portal apps`);
  }
  const startWorker = startBuilt('worker', WORKER_ENTRY, env, log);
  const startApi = startBuilt('api', API_ENTRY, env, log);
  const firstWorker = startWorker();
  const firstApi = startApi();
  try {
    const healthy = waitForHttp(`${portalUrl}/rest/public/health`, 'API', 120_000, firstApi.isRunning);
    await untilReady(firstWorker, untilReady(firstApi, healthy));
  } catch (err) {
    await Promise.all([firstApi.stop(), firstWorker.stop()]);
    throw err;
  }
  const worker = supervise({ name: 'worker', start: startWorker, first: firstWorker, log, policy });
  const api = supervise({ name: 'api', start: startApi, first: firstApi, log, policy });
  return {
    worker,
    api,
    stop: async () => {
      await Promise.all([api.stop(), worker.stop()]);
    },
  };
}

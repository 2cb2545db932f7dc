/** The portal's own processes in the local stack: the Temporal worker and the API (which serves the web app). */
import fs from 'node:fs';
import { waitForHttp } from './net';
import { repoPath } from './paths';
import { type Log, type ManagedProcess, spawnManaged, untilReady } from './procs';

export const WORKER_ENTRY = repoPath('worker', 'src', 'main.ts');
export const API_ENTRY = repoPath('api', 'src', 'main.ts');

export interface AppsHandle {
  processes: ManagedProcess[];
  /** Stops the API first, then the worker (SIGTERM, SIGKILL after 5 s). */
  stop(): Promise<void>;
}

function startTs(name: string, entry: string, env: NodeJS.ProcessEnv, log: Log): ManagedProcess {
  return spawnManaged({
    name,
    command: process.execPath,
    args: ['--enable-source-maps', '--import', 'tsx', entry],
    cwd: repoPath(),
    env,
    log,
  });
}

/**
 * Starts the worker and the API with `env`, then waits until `GET <portalUrl>/rest/public/health` answers 200.
 * @throws Error when an entry file is missing, a process exits during start-up, or the API is not healthy
 *   within 120 s (everything started is stopped again first).
 */
export async function startApps(env: NodeJS.ProcessEnv, portalUrl: string, log: Log): Promise<AppsHandle> {
  for (const entry of [WORKER_ENTRY, API_ENTRY]) {
    if (!fs.existsSync(entry)) throw new Error(`${entry} does not exist: cannot start the portal apps`);
  }
  const worker = startTs('worker', WORKER_ENTRY, env, log);
  const api = startTs('api', API_ENTRY, env, log);
  const stop = async (): Promise<void> => {
    await api.stop();
    await worker.stop();
  };
  try {
    const healthy = waitForHttp(`${portalUrl}/rest/public/health`, 'API', 120_000, api.isRunning);
    await untilReady(worker, untilReady(api, healthy));
  } catch (err) {
    await stop();
    throw err;
  }
  return { processes: [worker, api], stop };
}

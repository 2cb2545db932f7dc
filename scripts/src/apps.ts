/**
 * The portal's own processes in the local stack: the Temporal worker and the API (which serves the web app),
 * one of each per instance (`--instances`, instances.ts), run as built JavaScript
 * (`node --enable-source-maps <pkg>/dist/main.js`, built by build.ts). Once all are up, each runs under a
 * supervisor (supervisor.ts) that restarts it with backoff when it dies.
 */
import fs from 'node:fs';
import type { RestartPolicy } from './backoff';
import { SERVICE_ENTRIES, buildServices } from './build';
import { apiInstanceEnv, instanceName } from './instances';
import { waitForHttp } from './net';
import { repoPath } from './paths';
import { type Log, type ManagedProcess, spawnManaged, untilReady } from './procs';
import { supervise, type SupervisedProcess } from './supervisor';

export const WORKER_ENTRY = SERVICE_ENTRIES.worker;
export const API_ENTRY = SERVICE_ENTRIES.api;

export interface AppsHandle {
  /** The first worker and the first API (the only ones unless `--instances` asked for more). */
  worker: SupervisedProcess;
  api: SupervisedProcess;
  /** Every worker and every API, in instance order (issue 24). */
  workers: SupervisedProcess[];
  apis: SupervisedProcess[];
  /** Stops all (SIGTERM, SIGKILL after 5 s) and cancels pending restarts. */
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
 * Builds what is stale (build.ts; nothing when `dist/` is up to date), starts one worker and one API per entry
 * of `apiPorts` (the API of instance i listens on `apiPorts[i]`; its environment from `apiInstanceEnv`), waits
 * until every API answers `GET /rest/public/health` with 200, then supervises each. A process that dies
 * during start-up fails the start (a broken build should say so at once, not loop); one that dies later is
 * restarted with `policy` (default: 1 s doubling to 30 s).
 * @throws Error when the build fails, a process exits during start-up, or an API is not healthy
 *   within 120 s (everything started is stopped again first).
 */
export async function startApps(
  env: NodeJS.ProcessEnv,
  apiPorts: number[],
  log: Log,
  policy?: RestartPolicy,
): Promise<AppsHandle> {
  await buildServices({ log: (line) => log(`[build] ${line}`) });
  for (const entry of [WORKER_ENTRY, API_ENTRY]) {
    if (!fs.existsSync(entry)) throw new Error(`${entry} does not exist: cannot start the portal apps`);
  }
  const instances = apiPorts.map((port, i) => {
    const worker = instanceName('worker', i);
    const api = instanceName('api', i);
    return {
      port,
      startWorker: startBuilt(worker, WORKER_ENTRY, env, log),
      startApi: startBuilt(api, API_ENTRY, apiInstanceEnv(env, i, port), log),
      names: { worker, api },
    };
  });
  const first = instances.map((i) => ({ worker: i.startWorker(), api: i.startApi() }));
  try {
    await Promise.all(
      instances.map((instance, i) => {
        const { worker, api } = first[i]!;
        const url = `http://${env.HOST ?? '127.0.0.1'}:${instance.port}/rest/public/health`;
        const healthy = waitForHttp(url, instance.names.api, 120_000, api.isRunning);
        return untilReady(worker, untilReady(api, healthy));
      }),
    );
  } catch (err) {
    await Promise.all(first.flatMap((f) => [f.api.stop(), f.worker.stop()]));
    throw err;
  }
  const workers = instances.map((instance, i) =>
    supervise({ name: instance.names.worker, start: instance.startWorker, first: first[i]!.worker, log, policy }),
  );
  const apis = instances.map((instance, i) =>
    supervise({ name: instance.names.api, start: instance.startApi, first: first[i]!.api, log, policy }),
  );
  return {
    worker: workers[0]!,
    api: apis[0]!,
    workers,
    apis,
    stop: async () => {
      await Promise.all([...apis, ...workers].map((p) => p.stop()));
    },
  };
}

/**
 * The demo study system in the local stack (issue 22): started after the API is healthy (it discovers the
 * provider there), only when the stack runs the apps, supervised like the worker and the API (restarted with
 * backoff when it dies) and stopped with the stack. It runs from its TypeScript sources (`node --import tsx`),
 * like the seed: it is a development aid, not a built service.
 */
import type { RestartPolicy } from '../backoff';
import { waitForHttp } from '../net';
import { repoPath } from '../paths';
import { type Log, spawnManaged, untilReady } from '../procs';
import { supervise, type SupervisedProcess } from '../supervisor';
import { DEMO_CLIENT_ID, demoSystemUrl } from './config';

export const DEMO_SYSTEM_ENTRY = repoPath('scripts', 'src', 'demo-system', 'main.ts');

/** The variables the demo system (and the seed, which registers its client) read. */
export function demoSystemEnv(opts: { port: number; issuer: string; clientSecret: string }): Record<string, string> {
  return {
    DEMO_SYSTEM_PORT: String(opts.port),
    DEMO_SYSTEM_URL: demoSystemUrl(opts.port),
    DEMO_SYSTEM_ISSUER: opts.issuer,
    DEMO_SYSTEM_CLIENT_ID: DEMO_CLIENT_ID,
    DEMO_SYSTEM_CLIENT_SECRET: opts.clientSecret,
  };
}

/**
 * Starts the demo system with `env` (the stack's environment plus demoSystemEnv) and waits until it answers.
 * @throws Error when it exits during start-up or does not answer within 60 s (it is stopped first).
 */
export async function startDemoSystem(
  env: NodeJS.ProcessEnv,
  port: number,
  log: Log,
  policy?: RestartPolicy,
): Promise<SupervisedProcess> {
  const start = () =>
    spawnManaged({
      name: 'demo-system',
      command: process.execPath,
      args: ['--import', 'tsx', DEMO_SYSTEM_ENTRY],
      cwd: repoPath(),
      env,
      log,
    });
  const first = start();
  try {
    await untilReady(first, waitForHttp(`http://127.0.0.1:${port}/health`, 'demo system', 60_000, first.isRunning));
  } catch (err) {
    await first.stop();
    throw err;
  }
  return supervise({ name: 'demo-system', start, first, log, policy });
}

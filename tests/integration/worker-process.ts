/**
 * The worker as a separate process, for the tests that kill it (`kill -9`) in the middle of an activity:
 * worker/src/main.ts run from its sources against the test stack (PostgreSQL, Temporal, SMTP and the
 * directory of the stack's own environment), with the reviewers' digest off and the reconciler's grace long,
 * so that only the test's own request moves.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { stackEnv } from './fixtures';

/**
 * Starts the worker on `taskQueue`; `env` overrides the worker's configuration (e.g. a short RECONCILE_GRACE
 * and RECONCILE_EVERY, so its scheduled reconciler runs in the test, or a TEMPORAL_ADDRESS behind a fault
 * proxy). @returns the process, once it polls.
 * @throws Error with the process's output when it exits or has not polled within 90 s.
 */
export async function startWorkerProcess(taskQueue: string, env: Record<string, string> = {}): Promise<ChildProcess> {
  const root = path.join(import.meta.dirname, '..', '..');
  const child = spawn(
    process.execPath,
    ['--conditions=development', '--import', 'tsx', path.join(root, 'worker', 'src', 'main.ts')],
    {
      cwd: root,
      env: {
        ...process.env,
        ...stackEnv(),
        TEMPORAL_TASK_QUEUE: taskQueue,
        REVIEWER_DIGEST_TO: '',
        RECONCILE_GRACE: '1 day',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${output}`)), 90_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('worker running on task queue')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code}:\n${output}`));
    });
  });
  return child;
}

/** Kills `child` with SIGKILL (as a crash would) and waits for it to be gone. */
export async function killWorkerProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

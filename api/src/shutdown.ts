/**
 * The API process's graceful stop on SIGTERM or SIGINT, bounded: an orchestrator that sends SIGTERM waits a
 * grace period and then kills, and a stop that hangs (a request that never ends, a connection that never
 * closes) must neither outlive it silently nor leave the operator guessing. Steps run in order; if they have
 * not all finished within `deadlineMs`, the step still running is named on stderr and the process exits 1.
 */

/** One step of the stop: a name for the log and what it closes. */
export interface ShutdownStep {
  name: string;
  run: () => Promise<unknown> | unknown;
}

/** How the stop ended: `done` after every step, `timeout` naming the step that was still running. */
export type ShutdownOutcome =
  { kind: 'done' } | { kind: 'timeout'; step: string } | { kind: 'failed'; step: string; error: unknown };

/**
 * Runs `steps` one after another within `deadlineMs` (milliseconds). A step that throws ends the stop as
 * `failed` (the rest cannot be trusted to close in order); never throws itself.
 */
export async function runShutdown(steps: ShutdownStep[], deadlineMs: number): Promise<ShutdownOutcome> {
  let current = steps[0]?.name ?? '';
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<ShutdownOutcome>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'timeout', step: current }), deadlineMs);
    timer.unref();
  });
  const all = (async (): Promise<ShutdownOutcome> => {
    for (const step of steps) {
      current = step.name;
      try {
        await step.run();
      } catch (error) {
        return { kind: 'failed', step: step.name, error };
      }
    }
    return { kind: 'done' };
  })();
  try {
    return await Promise.race([all, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Installs the stop on SIGTERM and SIGINT (once): runs `steps` within `deadlineMs`, then exits 0 when all
 * closed, 1 otherwise, with the reason on stderr.
 */
export function stopOnSignals(steps: ShutdownStep[], deadlineMs: number): void {
  const stop = async (signal: NodeJS.Signals) => {
    const outcome = await runShutdown(steps, deadlineMs);
    if (outcome.kind === 'timeout') {
      console.error(`api stop on ${signal}: '${outcome.step}' did not finish within ${deadlineMs} ms; exiting`);
    } else if (outcome.kind === 'failed') {
      console.error(`api stop on ${signal}: '${outcome.step}' failed:`, outcome.error);
    }
    process.exit(outcome.kind === 'done' ? 0 : 1);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

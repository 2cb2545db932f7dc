/**
 * The restart policy on real child processes (`node -e` scripts that exit or are SIGKILLed): the backoff
 * sequence and its ceiling, the reset after a long enough run, and stop() during a run and during backoff.
 * Delays are scaled down to tens of milliseconds; the policy is the same.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RestartPolicy } from './backoff';
import { type ManagedProcess, spawnManaged } from './procs';
import { type RestartEvent, supervise, type SupervisedProcess } from './supervisor';

const EXIT_AT_ONCE = 'process.exit(3)';
const RUN_FOREVER = 'setInterval(() => {}, 1e6)';
/**
 * resetAfterMs is far above what a crash at once takes: on a busy machine a `node -e` child took over 600 ms to
 * start and exit, which counted as a run long enough to reset the delay (a `npm run test:busy` run failed so).
 */
const policy: RestartPolicy = { initialDelayMs: 50, maxDelayMs: 200, resetAfterMs: 3_000 };

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A supervised `node -e <script of run n>` with everything it did recorded. */
function harness(scriptOfRun: (run: number) => string, p: RestartPolicy = policy) {
  const runs: Array<{ proc: ManagedProcess; startedAt: number }> = [];
  const events: Array<RestartEvent & { at: number }> = [];
  const lines: string[] = [];
  const start = (): ManagedProcess => {
    const proc = spawnManaged({
      name: 'worker',
      command: process.execPath,
      args: ['-e', scriptOfRun(runs.length + 1)],
      log: (line) => lines.push(line),
    });
    runs.push({ proc, startedAt: Date.now() });
    return proc;
  };
  const supervised = supervise({
    name: 'worker',
    start,
    policy: p,
    log: (line) => lines.push(line),
    onRestart: (e) => events.push({ ...e, at: Date.now() }),
  });
  started.push(supervised);
  const untilEvents = async (n: number, timeoutMs = 10_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (events.length < n) {
      if (Date.now() > deadline) throw new Error(`only ${events.length} of ${n} restarts:\n${lines.join('\n')}`);
      await sleep(10);
    }
  };
  return { supervised, runs, events, lines, untilEvents };
}

const started: SupervisedProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.stop(1_000)));
});

describe('supervise', () => {
  it('restarts a crashing process with doubling delays up to the ceiling, and logs each restart', async () => {
    const { supervised, runs, events, lines, untilEvents } = harness(() => EXIT_AT_ONCE);
    await untilEvents(5);
    await supervised.stop();

    expect(events.slice(0, 5).map((e) => [e.delayMs, e.attempt])).toEqual([
      [50, 1],
      [100, 2],
      [200, 3],
      [200, 4],
      [200, 5],
    ]);
    expect(events.every((e) => e.exit.code === 3 && e.exit.signal === null)).toBe(true);
    // Each run started no earlier than its delay after the previous one ended.
    for (let i = 0; i < 4; i++)
      expect(runs[i + 1]!.startedAt - events[i]!.at).toBeGreaterThanOrEqual(events[i]!.delayMs - 5);
    expect(lines[0]).toBe(`[stack] worker started (pid ${runs[0]!.proc.pid})`);
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^\\[stack\\] worker \\(pid ${runs[0]!.proc.pid}\\) exited with exit code 3 after [\\d.]+ m?s: restarting in 50 ms \\(attempt 1\\)$`,
        ),
      ),
    );
    expect(lines).toContain(`[stack] worker restarted (pid ${runs[1]!.proc.pid})`);
  });

  it('resets the delay after a run that stayed up for resetAfterMs', async () => {
    // Runs 1-3 crash at once; run 4 stays up 3.5 s (> 3 s) and then crashes; run 5 crashes at once.
    const { events, untilEvents } = harness((run) =>
      run === 4 ? 'setTimeout(() => process.exit(1), 3500)' : EXIT_AT_ONCE,
    );
    await untilEvents(5, 20_000);

    expect(events.slice(0, 5).map((e) => [e.delayMs, e.attempt])).toEqual([
      [50, 1],
      [100, 2],
      [200, 3],
      [50, 1],
      [100, 2],
    ]);
    expect(events[3]!.uptimeMs).toBeGreaterThanOrEqual(3_000);
  });

  it('brings back a SIGKILLed process as a new one', async () => {
    const { supervised, events, lines, untilEvents } = harness(() => RUN_FOREVER);
    const first = supervised.current();
    await sleep(200);
    process.kill(first.pid, 'SIGKILL');
    await untilEvents(1);

    expect(events[0]).toMatchObject({ pid: first.pid, exit: { code: null, signal: 'SIGKILL' }, delayMs: 50 });
    expect(lines.some((l) => l.startsWith(`[stack] worker (pid ${first.pid}) exited with signal SIGKILL after`))).toBe(
      true,
    );
    await sleep(200);
    const second = supervised.current();
    expect(second.pid).not.toBe(first.pid);
    expect(second.isRunning()).toBe(true);
    expect(alive(second.pid)).toBe(true);
  });

  it('stop() ends a running process without restarting it', async () => {
    const { supervised, runs, events } = harness(() => RUN_FOREVER);
    await sleep(200);
    await supervised.stop();
    await sleep(200);

    expect(runs).toHaveLength(1);
    expect(events).toHaveLength(0);
    expect(alive(runs[0]!.proc.pid)).toBe(false);
  });

  it('stop() during the backoff delay cancels the pending restart', async () => {
    const slow: RestartPolicy = { initialDelayMs: 500, maxDelayMs: 500, resetAfterMs: 60_000 };
    const { supervised, runs, untilEvents } = harness(() => EXIT_AT_ONCE, slow);
    await untilEvents(1);
    await supervised.stop();
    // Past the 500 ms backoff: a restart that was not cancelled would have run by now.
    await sleep(800);

    expect(runs).toHaveLength(1);
    expect(runs[0]!.proc.isRunning()).toBe(false);
  });
});

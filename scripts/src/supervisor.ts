/**
 * Keeps one of the stack's own processes (the worker or the API) running: when it exits without being
 * asked to, it is started again after the backoff delay of `backoff.ts`, and the log names the process,
 * its pid, how it ended and when the next attempt is. stop() ends the current run and cancels a pending
 * restart, so no restart outlives the stack.
 */
import { DEFAULT_RESTART_POLICY, nextRestart, type RestartPlan, type RestartPolicy } from './backoff';
import type { ExitInfo, Log, ManagedProcess } from './procs';

/** What the supervisor decided after a run ended. */
export interface RestartEvent extends RestartPlan {
  name: string;
  /** The pid of the run that ended. */
  pid: number;
  exit: ExitInfo;
  uptimeMs: number;
}

export interface SupervisedProcess {
  name: string;
  /** The current run; while a restart is pending, the run that ended. */
  current(): ManagedProcess;
  /** Stops the current run (SIGTERM, SIGKILL after `graceMs`) and cancels a pending restart. Idempotent. */
  stop(graceMs?: number): Promise<void>;
}

export interface SuperviseOptions {
  name: string;
  /** Starts one run of the process (spawnManaged). Called for every restart. */
  start: () => ManagedProcess;
  /** The first run, when the caller started it itself (e.g. to wait for it to become ready). Default: start(). */
  first?: ManagedProcess;
  log: Log;
  /** Default DEFAULT_RESTART_POLICY (1 s doubling to 30 s, reset after 60 s up). */
  policy?: RestartPolicy;
  /** Sees every scheduled restart (after it was logged). */
  onRestart?: (event: RestartEvent) => void;
}

const duration = (ms: number): string => (ms < 1_000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(1))} s`);

/** "signal SIGKILL" or "exit code 1". */
export const describeExit = (exit: ExitInfo): string =>
  exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`;

/** Supervises `opts.start()` until stop(); see the module comment. */
export function supervise(opts: SuperviseOptions): SupervisedProcess {
  const policy = opts.policy ?? DEFAULT_RESTART_POLICY;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let plan: RestartPlan | undefined;
  let proc: ManagedProcess;

  const watch = (run: ManagedProcess): void => {
    proc = run;
    const startedAt = Date.now();
    void run.exited.then((exit) => {
      if (stopping) return;
      const uptimeMs = Date.now() - startedAt;
      plan = nextRestart(policy, plan, uptimeMs);
      opts.log(
        `[stack] ${opts.name} (pid ${run.pid}) exited with ${describeExit(exit)} after ${duration(uptimeMs)}: ` +
          `restarting in ${duration(plan.delayMs)} (attempt ${plan.attempt})`,
      );
      opts.onRestart?.({ name: opts.name, pid: run.pid, exit, uptimeMs, ...plan });
      timer = setTimeout(() => {
        timer = undefined;
        if (stopping) return;
        const next = opts.start();
        opts.log(`[stack] ${opts.name} restarted (pid ${next.pid})`);
        watch(next);
      }, plan.delayMs);
    });
  };
  const first = opts.first ?? opts.start();
  opts.log(`[stack] ${opts.name} started (pid ${first.pid})`);
  watch(first);

  return {
    name: opts.name,
    current: () => proc,
    async stop(graceMs) {
      stopping = true;
      clearTimeout(timer);
      timer = undefined;
      await proc.stop(graceMs);
    },
  };
}

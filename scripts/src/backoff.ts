/**
 * The restart policy of the stack's own processes (worker, API): the delay doubles after every crash, up
 * to a ceiling, and falls back to the first delay once a run stayed up long enough to count as recovered
 * (so a crash an hour later is not punished for the crashes of the morning).
 */

export interface RestartPolicy {
  /** Delay before the first restart, and after a run that lasted `resetAfterMs`. */
  initialDelayMs: number;
  /** Ceiling of the doubling delay. */
  maxDelayMs: number;
  /** A run at least this long resets the delay (and the attempt count). */
  resetAfterMs: number;
}

/** 1 s, 2 s, 4 s … 30 s; back to 1 s after a minute of uptime. */
export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  initialDelayMs: 1_000,
  maxDelayMs: 30_000,
  resetAfterMs: 60_000,
};

export interface RestartPlan {
  /** How long to wait before starting the process again. */
  delayMs: number;
  /** 1 for the first restart since the process last recovered, then 2, 3 … */
  attempt: number;
}

/**
 * The next restart after a run of `uptimeMs` ended.
 * @param previous the plan that started the run that just ended; undefined when that run was the first.
 */
export function nextRestart(policy: RestartPolicy, previous: RestartPlan | undefined, uptimeMs: number): RestartPlan {
  if (!previous || uptimeMs >= policy.resetAfterMs) return { delayMs: policy.initialDelayMs, attempt: 1 };
  return { delayMs: Math.min(previous.delayMs * 2, policy.maxDelayMs), attempt: previous.attempt + 1 };
}

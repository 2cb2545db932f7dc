/**
 * The worker's own Prometheus metrics (issue 24): each activity execution counted and timed by activity name
 * and outcome (completed, failed, cancelled), through an activity interceptor, so every activity is measured
 * without touching its code. One registry per worker process (metrics-server.ts serves it).
 */
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { CancelledFailure } from '@temporalio/common';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';

export interface WorkerMetrics {
  registry: Registry;
  activityExecutions: Counter<'activity' | 'outcome'>;
  activityDuration: Histogram<'activity' | 'outcome'>;
}

export type ActivityOutcome = 'completed' | 'failed' | 'cancelled';

/** Creates the registry with Node's default process metrics and the activity metrics. */
export function createWorkerMetrics(): WorkerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    activityExecutions: new Counter({
      name: 'portal_activity_executions_total',
      help: 'Activity executions (attempts) by activity name and outcome: completed, failed, cancelled.',
      labelNames: ['activity', 'outcome'],
      registers: [registry],
    }),
    activityDuration: new Histogram({
      name: 'portal_activity_duration_seconds',
      help: 'Time an activity execution (one attempt) took, by activity name and outcome.',
      labelNames: ['activity', 'outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    }),
  };
}

const outcomeOf = (err: unknown): ActivityOutcome => (err instanceof CancelledFailure ? 'cancelled' : 'failed');

/** The interceptor that records every execution of this worker's activities into `metrics`. */
export function activityMetricsInterceptor(metrics: WorkerMetrics): ActivityInterceptorsFactory {
  return (ctx) => ({
    inbound: {
      async execute(input, next) {
        const activity = ctx.info.activityType;
        const started = performance.now();
        const record = (outcome: ActivityOutcome) => {
          metrics.activityExecutions.inc({ activity, outcome });
          metrics.activityDuration.observe({ activity, outcome }, (performance.now() - started) / 1000);
        };
        try {
          const result = await next(input);
          record('completed');
          return result;
        } catch (err) {
          record(outcomeOf(err));
          throw err;
        }
      },
    },
  });
}

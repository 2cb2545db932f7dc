/**
 * Temporal's hops in a trace (issue 24 "Traces"): the client interceptor (a span per workflow start, update,
 * signal and query, its context put in the call's headers), and on the worker the workflow interceptors
 * (bundled into the workflow code: spans for each workflow run and each activity it schedules, exported
 * through a sink because the sandbox cannot export) and the activity interceptor (a span per activity
 * execution, child of the workflow's). Installed whether tracing is on or off, so the workflow bundle and the
 * replayed histories are the same either way; off, the spans are no-ops and the sink drops them.
 */
import { createRequire } from 'node:module';
import type { WorkflowClientInterceptor } from '@temporalio/client';
import {
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  OpenTelemetryWorkflowClientInterceptor,
  makeWorkflowExporter,
} from '@temporalio/interceptors-opentelemetry';
import type { WorkerOptions } from '@temporalio/worker';
import type { Tracing } from './tracing';

const require = createRequire(import.meta.url);

/** The workflow interceptors' module, for `bundleWorkflowCode({ workflowInterceptorModules })` too. */
export const WORKFLOW_TRACING_MODULE =
  require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors');

/** The client's interceptors: `new Client({ interceptors: { workflow: workflowClientTracing() } })`. */
export const workflowClientTracing = (): WorkflowClientInterceptor[] => [new OpenTelemetryWorkflowClientInterceptor()];

/**
 * The worker options that trace workflows and activities: interceptors, and the sink the workflow spans leave
 * the sandbox by (given to `tracing`'s processor; dropped when tracing is off). `bundled`: the worker runs a
 * bundle built ahead of time, which must have been built with `WORKFLOW_TRACING_MODULE` among its
 * `workflowInterceptorModules` (scripts/src/build.ts, the tests' bundle).
 */
export function workerTracing(
  tracing: Tracing | null,
  opts: { bundled: boolean },
): Pick<WorkerOptions, 'interceptors' | 'sinks'> {
  return {
    interceptors: {
      ...(opts.bundled ? {} : { workflowModules: [WORKFLOW_TRACING_MODULE] }),
      activity: [
        (ctx) => ({
          inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
          outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
        }),
      ],
    },
    sinks: tracing
      ? { exporter: makeWorkflowExporter(tracing.spanProcessor, tracing.resource) }
      : { exporter: { export: { fn: () => undefined } } },
  };
}

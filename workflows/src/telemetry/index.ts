/** @portal/workflows/telemetry: traces across the API, Temporal and the worker (issue 24), Node side only. */
export { startTracing, type Tracing } from './tracing';
export { WORKFLOW_TRACING_MODULE, workerTracing, workflowClientTracing } from './temporal';

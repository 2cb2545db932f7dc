/**
 * Traces (issue 24 "Traces"): one OpenTelemetry tracer provider per process, exported over OTLP/HTTP when
 * `OTEL_EXPORTER_OTLP_ENDPOINT` is set and off otherwise (the API and the interceptors then make no-op spans).
 * The instrumentation is explicit, not the auto-instrumentation loader hooks: the services are ES modules, and
 * every hop is ours to mark: the HTTP request (api/src/plugins/tracing.ts), the workflow start, update and
 * signal and each activity (temporal.ts, Temporal's interceptors), PostgreSQL statements (postgres.ts) and
 * LDAP operations (@portal/directory). W3C trace context crosses processes in HTTP and Temporal headers.
 */
import { context, propagation, trace } from '@opentelemetry/api';
import { Resource } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { tracePostgres } from './postgres';

/** What a process's tracing is: the processor the worker's workflow spans go through too, and its shutdown. */
export interface Tracing {
  resource: Resource;
  spanProcessor: SpanProcessor;
  /** Flushes what is buffered and stops exporting. */
  shutdown(): Promise<void>;
}

/**
 * Starts tracing for `serviceName` ('portal-api', 'portal-worker') and registers it as the process's global
 * tracer provider (context kept across awaits by AsyncLocalStorage). `exporter` replaces OTLP (tests collect
 * spans in memory, exported at once). @returns null when neither `exporter` nor OTEL_EXPORTER_OTLP_ENDPOINT is
 * given: tracing is off.
 */
export function startTracing(
  serviceName: string,
  opts: { exporter?: SpanExporter; env?: NodeJS.ProcessEnv } = {},
): Tracing | null {
  const env = opts.env ?? process.env;
  if (!opts.exporter && !env.OTEL_EXPORTER_OTLP_ENDPOINT) return null;
  const resource = new Resource({ 'service.name': env.OTEL_SERVICE_NAME || serviceName });
  // The OTLP exporter reads OTEL_EXPORTER_OTLP_ENDPOINT / _HEADERS itself (…/v1/traces appended).
  const spanProcessor = opts.exporter
    ? new SimpleSpanProcessor(opts.exporter)
    : new BatchSpanProcessor(new OTLPTraceExporter());
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  provider.register();
  const untracePostgres = tracePostgres(provider);
  return {
    resource,
    spanProcessor,
    shutdown: async () => {
      untracePostgres();
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

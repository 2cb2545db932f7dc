/** The API process: validates configuration, connects to PostgreSQL and Temporal, serves until signalled. */
import { Client, Connection } from '@temporalio/client';
import { createPrisma } from '@portal/db';
import { startTracing, workflowClientTracing } from '@portal/workflows/telemetry';
import { ensureTimingEntry } from '@portal/directory';
import { loadTemporalConnection, temporalConnectError } from '@portal/workflows/connection';
import { loadApiConfig } from './config';
import { buildElearningServer } from './features/dashboard-resources/elearning-server';
import { buildMetricsServer } from './observability/metrics-routes';
import { createApiMetrics } from './observability/registry';
import { buildServer } from './server';
import { stopOnSignals } from './shutdown';

async function main(): Promise<void> {
  // The first line names the runtime: operators (and the stack test) see which Node runs the API.
  console.log(`api starting on Node ${process.version} (pid ${process.pid})`);
  const cfg = loadApiConfig();
  // Traces over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set (issue 24); off otherwise.
  const tracing = startTracing('portal-api');
  // TLS, mutual TLS or an API key (TEMPORAL_TLS_*, TEMPORAL_API_KEY), validated before anything connects.
  const temporalOptions = loadTemporalConnection(cfg.TEMPORAL_ADDRESS);
  const prisma = createPrisma(cfg.DATABASE_URL);
  const connection = await Connection.connect(temporalOptions).catch((err: unknown) => {
    throw temporalConnectError(temporalOptions, err);
  });
  const temporal = new Client({
    connection,
    namespace: cfg.TEMPORAL_NAMESPACE,
    interceptors: { workflow: workflowClientTracing() },
  });
  // Sign-in binds against this entry for names no account has (issue 13); the seed also creates it.
  await ensureTimingEntry(cfg).catch((err: unknown) => console.warn('sign-in timing entry not ensured:', err));
  const deps = { cfg, prisma, temporal, directory: cfg };
  const metrics = createApiMetrics();
  const app = await buildServer(deps, metrics);
  // /metrics and the probes on a listener of their own (issue 24), when METRICS_PORT is set.
  const metricsServer = cfg.METRICS_PORT ? await buildMetricsServer(deps, metrics) : undefined;
  // The e-learning origin's own listener (issue 23), when one is configured.
  const elearning = cfg.ELEARNING_PORT
    ? await buildElearningServer({ cfg, prisma, temporal, directory: cfg })
    : undefined;
  // Bounded (SHUTDOWN_TIMEOUT_MS): a step that hangs is named and the process exits instead of waiting on it.
  stopOnSignals(
    [
      { name: 'e-learning server', run: () => elearning?.close() },
      { name: 'metrics server', run: () => metricsServer?.close() },
      { name: 'HTTP server (in-flight requests, listeners, pools)', run: () => app.close() },
      { name: 'Temporal connection', run: () => connection.close() },
      { name: 'database client', run: () => prisma.$disconnect() },
      { name: 'tracing', run: () => tracing?.shutdown() },
    ],
    cfg.SHUTDOWN_TIMEOUT_MS,
  );
  await app.listen({ host: cfg.HOST, port: cfg.PORT });
  await metricsServer?.listen({ host: cfg.METRICS_HOST ?? cfg.HOST, port: cfg.METRICS_PORT });
  await elearning?.listen({ host: cfg.ELEARNING_HOST ?? cfg.HOST, port: cfg.ELEARNING_PORT });
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});

/**
 * The worker's /metrics listener (issue 24; WORKER_METRICS_PORT): the portal's activity metrics and the SDK's runtime
 * metrics (sdk-metrics.ts, read from the core's loopback exporter within a second) in one Prometheus text.
 * The worker has no other HTTP port; this one answers /metrics and /livez only.
 */
import http from 'node:http';
import type { WorkerMetrics } from './activity-metrics';

/** The SDK's text, or a comment saying why it is missing (the portal's series are served either way). */
async function sdkText(url: string | undefined): Promise<string> {
  if (!url) return '';
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(1_000) });
    return res.ok ? await res.text() : `# Temporal SDK metrics unavailable: HTTP ${res.status}\n`;
  } catch (err) {
    return `# Temporal SDK metrics unavailable: ${err instanceof Error ? err.message : String(err)}\n`;
  }
}

/**
 * Starts the listener at `host:port`.
 * @returns a function that closes it.
 */
export async function startWorkerMetricsServer(opts: {
  host: string;
  port: number;
  metrics: WorkerMetrics;
  sdkMetricsUrl?: string;
}): Promise<() => Promise<void>> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || (path !== '/metrics' && path !== '/livez')) {
      res.writeHead(404).end();
      return;
    }
    if (path === '/livez') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    void Promise.all([opts.metrics.registry.metrics(), sdkText(opts.sdkMetricsUrl)]).then(
      ([own, sdk]) => res.writeHead(200, { 'content-type': opts.metrics.registry.contentType }).end(`${own}\n${sdk}`),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(opts.port, opts.host, resolve));
  return () => new Promise((resolve) => server.close(() => resolve()));
}

/**
 * Counts and times every answered call (issue 24): the latency histogram by route template and status, the
 * sign-in failures and the rate-limit refusals. An app plugin: its hook sees every feature's routes.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { appPlugin } from '../plugins/app-plugin';
import type { ApiMetrics } from './registry';

declare module 'fastify' {
  interface FastifyInstance {
    /** The process's metrics (observability/registry.ts), served by /metrics. */
    metrics: ApiMetrics;
  }
}

const SIGN_IN = '/rest/token/create';

/**
 * The route template a call matched; calls no route matched share one label, so a scan of random URLs cannot
 * grow the label set.
 */
const routeOf = (req: FastifyRequest): string => req.routeOptions.url ?? 'unmatched';

function observe(metrics: ApiMetrics, req: FastifyRequest, reply: FastifyReply): void {
  const route = routeOf(req);
  const status = reply.statusCode;
  metrics.httpDuration.observe({ method: req.method, route, status }, reply.elapsedTime / 1000);
  if (status === 429) metrics.rateLimitRefusals.inc({ route });
  if (route === SIGN_IN && req.method === 'POST' && status !== 200) metrics.signInFailures.inc({ status });
}

/** Decorates the app with `metrics` and observes each answer once it is sent. */
export const httpMetrics = appPlugin(async (app: FastifyInstance, opts: { metrics: ApiMetrics }) => {
  app.decorate('metrics', opts.metrics);
  app.addHook('onResponse', async (req, reply) => observe(opts.metrics, req, reply));
});

/**
 * GET /metrics in Prometheus text (issue 24), never open on the public listener by default: with METRICS_TOKEN
 * the public listener answers it to `Authorization: Bearer <token>` only; with METRICS_PORT a listener of its
 * own serves it (and the probes) to whoever reaches that port, which the deployment keeps internal.
 */
import crypto from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Deps } from '../deps';
import { zodSchemas } from '../plugins/zod-schemas';
import { dbGaugeRefresher } from './db-gauges';
import { passwordCensus } from './directory-gauges';
import { healthRoutes } from './health-routes';
import type { ApiMetrics } from './registry';

/** Whether `header` is `Bearer <token>`, compared in constant time. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = crypto
    .createHash('sha256')
    .update(header ?? '')
    .digest();
  const wanted = crypto.createHash('sha256').update(`Bearer ${token}`).digest();
  return crypto.timingSafeEqual(given, wanted);
}

/** The /metrics route on `app`; `token` set, a call without it is answered 401. */
export async function metricsRoute(
  app: FastifyInstance,
  opts: { deps: Deps; metrics: ApiMetrics; token?: string },
): Promise<void> {
  const refresh = dbGaugeRefresher(opts.deps.prisma, opts.metrics, opts.deps.cfg.READY_CHECK_TIMEOUT_MS);
  const census = passwordCensus(opts.deps.directory, opts.metrics, opts.deps.cfg.PASSWORD_CENSUS_INTERVAL_MS);
  app.get('/metrics', { logLevel: 'warn' }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    if (opts.token !== undefined && !bearerMatches(req.headers.authorization, opts.token)) {
      return reply.code(401).header('www-authenticate', 'Bearer').send({ message: 'A metrics token is required.' });
    }
    census();
    await refresh();
    return reply.type(opts.metrics.registry.contentType).send(await opts.metrics.registry.metrics());
  });
}

/** The METRICS_PORT listener: /metrics without a token (the port is the boundary), /livez and /readyz. */
export async function buildMetricsServer(deps: Deps, metrics: ApiMetrics): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  await app.register(zodSchemas);
  await app.register(metricsRoute, { deps, metrics });
  await app.register(healthRoutes, { deps });
  return app;
}

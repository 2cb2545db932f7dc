/**
 * Load shedding (issue 24, @fastify/under-pressure): when the event loop lags past
 * OVERLOAD_MAX_EVENT_LOOP_DELAY_MS, calls are answered at once with 503 and `Retry-After` instead of queuing
 * on a process that cannot serve them (a hung socket to the caller). /livez and /metrics still answer: an
 * overloaded process is alive, and its metrics are what shows the overload.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import underPressure, { type FastifyUnderPressureOptions } from '@fastify/under-pressure';
import type { ApiConfig } from '../config';
import type { ApiMetrics } from './registry';

/** Paths served even under pressure. */
const ALWAYS = new Set(['/livez', '/metrics']);

export const OVERLOAD_MESSAGE = 'The portal is busy. Please try again in a few seconds.';

/** Registers the load shedder on the root app (before the routes); off when the limit is 0. */
export async function registerOverload(app: FastifyInstance, cfg: ApiConfig, metrics: ApiMetrics): Promise<void> {
  if (!cfg.OVERLOAD_MAX_EVENT_LOOP_DELAY_MS) return;
  await app.register(underPressure, {
    maxEventLoopDelay: cfg.OVERLOAD_MAX_EVENT_LOOP_DELAY_MS,
    retryAfter: cfg.OVERLOAD_RETRY_AFTER_SECONDS,
    // A returned body is sent at once (the library's third path, missing from its types); undefined lets the
    // call through. Its default instead hands a 503 error to the app's error handler, which answers 500.
    pressureHandler: ((req: FastifyRequest, reply: FastifyReply) => {
      if (ALWAYS.has(req.routeOptions.url ?? '')) return undefined;
      metrics.overloadRefusals.inc();
      reply
        .code(503)
        .header('retry-after', String(cfg.OVERLOAD_RETRY_AFTER_SECONDS))
        .header('cache-control', 'no-store');
      return { message: OVERLOAD_MESSAGE };
    }) as unknown as FastifyUnderPressureOptions['pressureHandler'],
  });
}

/**
 * /livez and /readyz (issue 24): liveness (the process answers; nothing else is asked, so a dependency's
 * outage never gets the API restarted) and readiness (readiness.ts: 503 naming each failed dependency). Outside
 * /rest: the web container's nginx proxies only /rest, so the probes stay on the internal network.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Deps } from '../deps';
import { CHECKS, checkReadiness } from './readiness';

const ChecksSchema = z.object(Object.fromEntries(CHECKS.map((c) => [c, z.string()])));
const ReadySchema = z.object({
  status: z.enum(['ready', 'not ready']),
  failed: z.array(z.enum(CHECKS)),
  checks: ChecksSchema,
});

/** Registers both probes on `app` (the public listener and the metrics listener). */
export async function healthRoutes(app: FastifyInstance, opts: { deps: Deps }): Promise<void> {
  app.get('/livez', { schema: { response: { 200: z.object({ status: z.literal('ok') }) } } }, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' as const };
  });
  app.get('/readyz', { schema: { response: { 200: ReadySchema, 503: ReadySchema } } }, async (_req, reply) => {
    const { ready, checks, failed } = await checkReadiness(opts.deps, opts.deps.cfg.READY_CHECK_TIMEOUT_MS);
    return reply
      .code(ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({ status: ready ? ('ready' as const) : ('not ready' as const), failed, checks });
  });
}

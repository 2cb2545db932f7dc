/**
 * Proxy bulk batches (001 §2.7; not in the spec's calls, designed in its style, docs/api.md), for any
 * signed-in user holding the proxy right (000 §6; 403 otherwise):
 * - POST /rest/secure/user_access_mod_request/proxy_batch: start a batch (start.ts);
 * - GET  /rest/secure/user_access_mod_request/proxy_batch: the caller's batches, newest first (`content`);
 * - GET  /rest/secure/user_access_mod_request/proxy_batch/{id}: one batch of the caller with its run summary
 *   and per-user results, read from the rows (progress while it runs; works after it closed).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParamsSchema, ProxyBatchDetailSchema, ProxyBatchSchema, StartProxyBatchBodySchema } from '@portal/contract';
import { requireAuth } from '../../../auth/guard';
import type { Deps } from '../../../deps';
import { forbidden, notFound } from '../../../http/errors';
import { MessageSchema, SECURE_ERRORS } from '../../../http/route-schemas';
import { proxyRulesOf } from '../../../shared/proxy-capability';
import { loadProxyScope } from '../../../shared/proxy-scope';
import { startProxyBatch } from './start';
import { proxyBatchDetailView, proxyBatchView } from './view';

const BASE = '/rest/secure/user_access_mod_request/proxy_batch';
const NOT_FOUND = 'Problem loading proxy batch.';

export const proxyBatchRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const { prisma } = deps;
  /** The proxy right, checked before the body is read (issue 8: permission before validation). */
  const requireProxy = async (req: Parameters<typeof requireAuth>[0]) => {
    const actor = requireAuth(req);
    if (!(await loadProxyScope(prisma, proxyRulesOf(deps.cfg), actor.userId)).canSubmit) throw forbidden();
  };

  app.post(
    BASE,
    {
      config: { permission: 'USER', destructive: true },
      onRequest: requireProxy,
      schema: {
        body: StartProxyBatchBodySchema,
        response: { 200: ProxyBatchDetailSchema, 503: MessageSchema, ...SECURE_ERRORS },
      },
    },
    async (req) => startProxyBatch(deps, requireAuth(req), req.body),
  );

  app.get(
    BASE,
    {
      config: { permission: 'USER' },
      onRequest: requireProxy,
      schema: { response: { 200: z.object({ content: z.array(ProxyBatchSchema) }), ...SECURE_ERRORS } },
    },
    async (req) => {
      const actor = requireAuth(req);
      const rows = await prisma.proxyBatch.findMany({
        where: { proxyUserId: actor.userId },
        orderBy: [{ sysdat: 'desc' }, { id: 'desc' }],
        take: 100,
      });
      return { content: rows.map(proxyBatchView) };
    },
  );

  app.get(
    `${BASE}/:id`,
    {
      config: { permission: 'USER' },
      onRequest: requireProxy,
      schema: {
        params: IdParamsSchema,
        response: { 200: ProxyBatchDetailSchema, 404: MessageSchema, ...SECURE_ERRORS },
      },
    },
    async (req) => {
      const actor = requireAuth(req);
      const batch = await prisma.proxyBatch.findUnique({ where: { id: req.params.id } });
      // Another proxy's batch answers like an unknown one (issue 13).
      if (!batch || batch.proxyUserId !== actor.userId) throw notFound(NOT_FOUND);
      const items = await prisma.proxyBatchItem.findMany({
        where: { batchId: batch.id },
        orderBy: { requestNum: 'asc' },
      });
      return proxyBatchDetailView(batch, items);
    },
  );
};

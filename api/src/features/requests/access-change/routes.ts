/**
 * Access-modification requests (001 §7; 000 §7 review_access_change_request): filing (USER), the signed-in
 * user's own requests, one request (its subject, its requester, or READ_USERS; anyone else gets the unknown
 * request's 404), and a reviewer's save
 * (WRITE_USERS: 200, or 202 while it is still being processed, REQUEST-LIFECYCLE rule 6).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AccessModRequestSchema,
  CreateAccessModRequestBodySchema,
  IdParamsSchema,
  MESSAGES,
  ReviewAccessChangeBodySchema,
} from '@portal/contract';
import { requireAuth } from '../../../auth/guard';
import type { Deps } from '../../../deps';
import { notFound } from '../../../http/errors';
import { SECURE_ERRORS } from '../../../http/route-schemas';
import { createAccessModRequest } from './filing';
import { reviewAccessChange } from './review';
import { accessModRequestView } from './view';
import { REVIEW_CONFIG, filingRoute, processing, readAnswers, reviewAnswers } from '../../../shared/request-routes';
import { temporalUiOf } from '../../../shared/views';
import { withRequestSignature, withRequestSignatures } from '../../../shared/request-signatures';

export const accessChangeRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const temporal = temporalUiOf(deps.cfg);

  app.post(
    '/rest/secure/user_access_mod_request',
    filingRoute(CreateAccessModRequestBodySchema, AccessModRequestSchema),
    async (req) => createAccessModRequest(deps, requireAuth(req), req.body),
  );

  app.get(
    '/rest/secure/user_access_mod_request/user',
    { schema: { response: { 200: z.object({ content: z.array(AccessModRequestSchema) }), ...SECURE_ERRORS } } },
    async (req) => {
      const actor = requireAuth(req);
      const rows = await deps.prisma.accessModRequest.findMany({
        where: { subjectUserId: actor.userId },
        orderBy: [{ sysdat: 'desc' }, { id: 'desc' }],
        include: { subject: true, requester: true },
      });
      const views = rows.map((r) => accessModRequestView(r, temporal));
      return { content: await withRequestSignatures(deps, 'AccessModRequest', views) };
    },
  );

  app.get(
    '/rest/secure/user_access_mod_request/:id',
    { schema: { params: IdParamsSchema, response: readAnswers(AccessModRequestSchema) } },
    async (req) => {
      const actor = requireAuth(req);
      const row = await deps.prisma.accessModRequest.findUnique({
        where: { id: req.params.id },
        include: { subject: true, requester: true },
      });
      // A request the caller may not read answers exactly like an unknown one (issue 13): no existence leak.
      const own = row && (row.subjectUserId === actor.userId || row.requesterUserId === actor.userId);
      if (!row || (!own && !actor.permissions.includes('READ_USERS'))) {
        throw notFound(MESSAGES.access.loadRequestsFailed);
      }
      return withRequestSignature(deps, 'AccessModRequest', accessModRequestView(row, temporal));
    },
  );

  app.put(
    '/rest/secure/user_management/review_access_change_request',
    {
      config: REVIEW_CONFIG,
      schema: { body: ReviewAccessChangeBodySchema, response: reviewAnswers(AccessModRequestSchema) },
    },
    async (req, reply) => processing(reply, await reviewAccessChange(deps, req, requireAuth(req), req.body)),
  );
};

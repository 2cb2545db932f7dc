/**
 * Access-modification requests (001 §7; 000 §7 review_access_change_request): filing (USER), the signed-in
 * user's own requests, one request (its subject, its requester, READ_USERS, or who may decide its open
 * approval stage; anyone else gets the unknown request's 404), and a reviewer's save
 * (WRITE_USERS: 200, or 202 while it is still being processed, REQUEST-LIFECYCLE rule 6). Approval stages
 * (docs/decisions.md "Approval policies"): a stage approver's decision (any signed-in user the stage rule
 * names) and 'Awaiting my approval'.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AccessModRequestSchema,
  AwaitingApprovalRowSchema,
  CreateAccessModRequestBodySchema,
  IdParamsSchema,
  MESSAGES,
  PageQuerySchema,
  ReviewAccessChangeBodySchema,
  StageDecisionBodySchema,
} from '@portal/contract';
import { requireAuth } from '../../../auth/guard';
import type { Deps } from '../../../deps';
import { notFound } from '../../../http/errors';
import { SECURE_ERRORS, pageSchema } from '../../../http/route-schemas';
import { createAccessModRequest } from './filing';
import { reviewAccessChange } from './review';
import { accessModRequestView } from './view';
import { REVIEW_CONFIG, filingRoute, processing, readAnswers, reviewAnswers } from '../../../shared/request-routes';
import { temporalUiOf } from '../../../shared/views';
import { withRequestSignatures } from '../../../shared/request-signatures';
import { approvalViewsOf, mayDecideOpenStage, requestViewFor } from './approval-view';
import { awaitingMyApproval } from './awaiting';
import { decideRequestStage } from './stage';

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
      const approvals = await approvalViewsOf(deps, rows, actor);
      const views = rows.map((r) => ({ ...accessModRequestView(r, temporal), approval: approvals.get(r.id) ?? null }));
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
      const readable =
        own ||
        actor.permissions.includes('READ_USERS') ||
        (row !== null && (await mayDecideOpenStage(deps, row, actor)));
      if (!row || !readable) throw notFound(MESSAGES.access.loadRequestsFailed);
      return requestViewFor(deps, row, actor);
    },
  );

  app.get(
    '/rest/secure/user_access_mod_request/awaiting_my_approval',
    {
      schema: {
        querystring: PageQuerySchema.pick({ page: true, size: true }),
        response: { 200: pageSchema(AwaitingApprovalRowSchema), ...SECURE_ERRORS },
      },
    },
    async (req) => awaitingMyApproval(deps, requireAuth(req), req.query),
  );

  app.post(
    '/rest/secure/user_access_mod_request/:id/stage',
    {
      config: { destructive: true },
      schema: {
        params: IdParamsSchema,
        body: StageDecisionBodySchema,
        response: reviewAnswers(AccessModRequestSchema),
      },
    },
    async (req, reply) =>
      processing(reply, await decideRequestStage(deps, req, requireAuth(req), req.params.id, req.body)),
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

/**
 * The reviewers' routes of access review campaigns (issue 25; contract/src/access-reviews.ts), for any signed-in
 * user; who reviews what is read at call time (authority.ts):
 * - GET  /rest/secure/access_review/mine: whether the caller reviews, and their open campaigns with counts;
 * - GET  /rest/secure/access_review/items: a page of the caller's items (403 for someone who reviews nothing);
 * - POST /rest/secure/access_review/decisions: Keep or Remove, by ids or by filter (decisions.ts).
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AccessReviewDecisionBodySchema,
  AccessReviewDecisionResultSchema,
  AccessReviewItemSchema,
  AccessReviewItemsQuerySchema,
  MyAccessReviewsSchema,
} from '@portal/contract';
import { requireAuth } from '../../auth/guard';
import type { Deps } from '../../deps';
import { forbidden } from '../../http/errors';
import { MessageSchema, SECURE_ERRORS, pageSchema } from '../../http/route-schemas';
import type { ReviewerScope } from '../../shared/access-review-authority';
import { recordDecisions } from './decisions';
import { listItems, myAccessReviews, requireReviewer } from './items';

const BASE = '/rest/secure/access_review';

export const accessReviewReviewerRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const { prisma } = deps;
  const studyRole = deps.cfg.ACCESS_REVIEW_STUDY_ROLE;
  /** The caller's scope, read once per call by the reviewer check (before the input is read: issue 8). */
  const scopes = new WeakMap<FastifyRequest, ReviewerScope>();
  const reviewerCheck = async (req: FastifyRequest) => {
    scopes.set(req, await requireReviewer(prisma, studyRole, requireAuth(req)));
  };
  const scopeOf = (req: FastifyRequest): ReviewerScope => {
    const scope = scopes.get(req);
    if (!scope) throw forbidden();
    return scope;
  };

  app.get(
    `${BASE}/mine`,
    { config: { permission: 'USER' }, schema: { response: { 200: MyAccessReviewsSchema, ...SECURE_ERRORS } } },
    async (req) => myAccessReviews(prisma, studyRole, requireAuth(req)),
  );

  app.get(
    `${BASE}/items`,
    {
      config: { permission: 'USER' },
      onRequest: reviewerCheck,
      schema: {
        querystring: AccessReviewItemsQuerySchema,
        response: { 200: pageSchema(AccessReviewItemSchema), ...SECURE_ERRORS },
      },
    },
    async (req) => listItems(prisma, requireAuth(req), scopeOf(req), req.query),
  );

  app.post(
    `${BASE}/decisions`,
    {
      config: { permission: 'USER', destructive: true },
      onRequest: reviewerCheck,
      schema: {
        body: AccessReviewDecisionBodySchema,
        response: { 200: AccessReviewDecisionResultSchema, 503: MessageSchema, ...SECURE_ERRORS },
      },
    },
    async (req) => recordDecisions(prisma, requireAuth(req), scopeOf(req), req.body),
  );
};

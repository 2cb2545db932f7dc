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
  ACCESS_REVIEW_MESSAGES,
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
import { orUnavailable } from '../../shared/deadline';
import { signatureFor } from '../../auth/signature-guard';
import { recordDecisions } from './decisions';
import { listItems, myAccessReviews, requireReviewer } from './items';

const BASE = '/rest/secure/access_review';

export const accessReviewReviewerRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const { prisma } = deps;
  const studyRole = deps.cfg.ACCESS_REVIEW_STUDY_ROLE;
  /** The caller's scope, read once per call by the reviewer check (before the input is read: issue 8). */
  const scopes = new WeakMap<FastifyRequest, ReviewerScope>();
  // PostgreSQL stopped or frozen answers 503 with the route's message, never a 500 or a hung call.
  const guarded = <T>(req: FastifyRequest, message: string, work: () => Promise<T>, ms?: number) =>
    orUnavailable(message, work, (err) => req.log.error({ err }, 'access review: the database failed'), ms);
  const reviewerCheck = (message: string) => async (req: FastifyRequest) => {
    const scope = await guarded(req, message, () => requireReviewer(prisma, studyRole, requireAuth(req)));
    scopes.set(req, scope);
  };
  const scopeOf = (req: FastifyRequest): ReviewerScope => {
    const scope = scopes.get(req);
    if (!scope) throw forbidden();
    return scope;
  };

  app.get(
    `${BASE}/mine`,
    {
      config: { permission: 'USER' },
      schema: { response: { 200: MyAccessReviewsSchema, 503: MessageSchema, ...SECURE_ERRORS } },
    },
    async (req) =>
      guarded(req, ACCESS_REVIEW_MESSAGES.loadItems, () => myAccessReviews(prisma, studyRole, requireAuth(req))),
  );

  app.get(
    `${BASE}/items`,
    {
      config: { permission: 'USER' },
      onRequest: reviewerCheck(ACCESS_REVIEW_MESSAGES.loadItems),
      schema: {
        querystring: AccessReviewItemsQuerySchema,
        response: { 200: pageSchema(AccessReviewItemSchema), 503: MessageSchema, ...SECURE_ERRORS },
      },
    },
    async (req) =>
      guarded(req, ACCESS_REVIEW_MESSAGES.loadItems, () =>
        listItems(prisma, requireAuth(req), scopeOf(req), req.query, { signatures: deps.cfg.SIGNATURES === 'on' }),
      ),
  );

  app.post(
    `${BASE}/decisions`,
    {
      config: { permission: 'USER', destructive: true },
      onRequest: reviewerCheck(ACCESS_REVIEW_MESSAGES.decideFailed),
      schema: {
        body: AccessReviewDecisionBodySchema,
        response: { 200: AccessReviewDecisionResultSchema, 503: MessageSchema, ...SECURE_ERRORS },
      },
    },
    // Beyond the decision transaction's own 20 s timeout, which answers 503 itself.
    async (req) =>
      guarded(
        req,
        ACCESS_REVIEW_MESSAGES.decideFailed,
        async () => {
          const auth = requireAuth(req);
          // One signature for the call, however many items it decides (docs/decisions.md "Electronic signatures").
          const signature = await signatureFor(deps, req, auth, ['ACCESS_REVIEW_DECISION']);
          return recordDecisions(prisma, auth, scopeOf(req), req.body, signature);
        },
        25_000,
      ),
  );
};

/**
 * Profile-change requests, all 7 calls of 001 §7 under /rest/secure/ldap_user_profile_mod_request (lists in
 * `content` of the page envelope, newest first, query page and size: one page of up to 1,000, default 300, or
 * the whole list streamed for the load-all size, 000 §9; list-sql.ts):
 * - GET /{id}: the request's own user or READ_USERS; anyone else gets the unknown request's 404 (issue 13);
 * - GET /user: the signed-in user's requests; GET /user/{userId}: one user's (their own, or READ_USERS; anyone
 *   else gets the unknown user's 404, shared/readable-user.ts);
 * - GET / and GET /status/{status} ('pending', 'all' or one status): READ_USERS;
 * - POST /: file one's own request (USER; filing.ts);
 * - PUT /{id}: a reviewer's save (WRITE_USERS: 200, or 202 while still processing; review.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { FastifyReply } from 'fastify';
import {
  CreateProfileChangeBodySchema,
  type FetchPageQuery,
  FetchPageQuerySchema,
  IdParamsSchema,
  PROFILE_CHANGE_BASE,
  PROFILE_CHANGE_MESSAGES,
  PathIdSchema,
  ProfileChangeRequestSchema,
  ProfileChangeStatusParamsSchema,
  UpdateProfileChangeBodySchema,
} from '@portal/contract';
import { requireAuth } from '../../../auth/guard';
import type { Deps } from '../../../deps';
import { notFound } from '../../../http/errors';
import { readableUserId } from '../../../shared/readable-user';
import { MessageSchema, SECURE_ERRORS, pageSchema } from '../../../http/route-schemas';
import { answerList } from '../../../shared/stream-page';
import {
  PROFILE_CHANGE_LIST_SORT,
  type ProfileChangeSelection,
  parseProfileChangeRows,
  profileChangeListSql,
  profileChangeRowJson,
} from './list-sql';
import { createProfileChangeRequest } from './filing';
import { reviewProfileChange } from './review';
import { WITH_USER, profileChangeView } from './view';
import { REVIEW_CONFIG, filingRoute, processing, readAnswers, reviewAnswers } from '../../../shared/request-routes';
import { temporalUiOf } from '../../../shared/views';
import { withRequestSignature, withRequestSignatures } from '../../../shared/request-signatures';

export const profileChangeRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const temporal = temporalUiOf(deps.cfg);
  const views = (rows: unknown[]) => parseProfileChangeRows(rows).map((r) => profileChangeView(r, temporal));
  const json = profileChangeRowJson(temporal);
  // With signatures on, a user's history carries its signatures (shared/request-signatures.ts).
  const signed =
    deps.cfg.SIGNATURES === 'on'
      ? (rows: ReturnType<typeof views>) => withRequestSignatures(deps, 'ProfileChangeRequest', rows)
      : undefined;
  /**
   * One page of `sel` with its total, or the whole of it streamed for the load-all size (000 §9); a user's
   * history (`history`) with its signatures when they are on.
   */
  const list = (reply: FastifyReply, sel: ProfileChangeSelection, q: FetchPageQuery, history = false) =>
    answerList(
      deps.prisma,
      reply,
      (page) => profileChangeListSql(sel, page),
      q,
      PROFILE_CHANGE_LIST_SORT,
      views,
      json,
      history ? signed : undefined,
    );
  const listAnswer = {
    querystring: FetchPageQuerySchema,
    response: { 200: pageSchema(ProfileChangeRequestSchema), ...SECURE_ERRORS },
  };

  app.post(PROFILE_CHANGE_BASE, filingRoute(CreateProfileChangeBodySchema, ProfileChangeRequestSchema), async (req) =>
    createProfileChangeRequest(deps, requireAuth(req), req.body),
  );

  app.get(`${PROFILE_CHANGE_BASE}/user`, { schema: listAnswer }, async (req, reply) =>
    list(reply, { kind: 'user', portalUserId: requireAuth(req).userId }, req.query, true),
  );

  app.get(
    `${PROFILE_CHANGE_BASE}/user/:userId`,
    {
      schema: {
        params: z.object({ userId: PathIdSchema }),
        querystring: listAnswer.querystring,
        response: { ...listAnswer.response, 404: MessageSchema },
      },
    },
    async (req, reply) => {
      const message = PROFILE_CHANGE_MESSAGES.loadFailed;
      const portalUserId = await readableUserId(deps.prisma, requireAuth(req), req.params.userId, message);
      return list(reply, { kind: 'user', portalUserId }, req.query, true);
    },
  );

  app.get(PROFILE_CHANGE_BASE, { config: { permission: 'READ_USERS' }, schema: listAnswer }, async (req, reply) =>
    list(reply, { kind: 'all' }, req.query),
  );

  app.get(
    `${PROFILE_CHANGE_BASE}/status/:status`,
    { config: { permission: 'READ_USERS' }, schema: { params: ProfileChangeStatusParamsSchema, ...listAnswer } },
    async (req, reply) => {
      const { status } = req.params;
      const sel: ProfileChangeSelection =
        status === 'all' || status === 'pending' ? { kind: status } : { kind: 'status', status };
      return list(reply, sel, req.query);
    },
  );

  app.get(
    `${PROFILE_CHANGE_BASE}/:id`,
    { schema: { params: IdParamsSchema, response: readAnswers(ProfileChangeRequestSchema) } },
    async (req) => {
      const actor = requireAuth(req);
      const row = await deps.prisma.profileChangeRequest.findUnique({
        where: { id: req.params.id },
        include: WITH_USER,
      });
      // A request the caller may not read answers exactly like an unknown one (issue 13): no existence leak.
      if (!row || (row.portalUserId !== actor.userId && !actor.permissions.includes('READ_USERS'))) {
        throw notFound(PROFILE_CHANGE_MESSAGES.loadFailed);
      }
      return withRequestSignature(deps, 'ProfileChangeRequest', profileChangeView(row, temporal));
    },
  );

  app.put(
    `${PROFILE_CHANGE_BASE}/:id`,
    {
      config: REVIEW_CONFIG,
      schema: {
        params: IdParamsSchema,
        body: UpdateProfileChangeBodySchema,
        response: reviewAnswers(ProfileChangeRequestSchema),
      },
    },
    async (req, reply) =>
      processing(reply, await reviewProfileChange(deps, req, requireAuth(req), req.params.id, req.body)),
  );
};

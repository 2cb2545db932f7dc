/**
 * Profile-change requests, all 7 calls of 001 §7 under /rest/secure/ldap_user_profile_mod_request (lists in
 * `content`, newest first):
 * - GET /{id}: the request's own user or READ_USERS; anyone else gets the unknown request's 404 (issue 13);
 * - GET /user: the signed-in user's requests; GET /user/{userId}: one user's (their own, or READ_USERS; anyone
 *   else gets the unknown user's 404, shared/readable-user.ts);
 * - GET / and GET /status/{status} ('pending', 'all' or one status): READ_USERS;
 * - POST /: file one's own request (USER; filing.ts);
 * - PUT /{id}: a reviewer's save (WRITE_USERS: 200, or 202 while still processing; review.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateProfileChangeBodySchema,
  IdParamsSchema,
  PROFILE_CHANGE_BASE,
  PROFILE_CHANGE_MESSAGES,
  PathIdSchema,
  ProfileChangeListSchema,
  ProfileChangeRequestSchema,
  ProfileChangeStatusParamsSchema,
  RESOLVED_STATUSES,
  UpdateProfileChangeBodySchema,
} from '@portal/contract';
import type { Prisma } from '@portal/db';
import { requireAuth } from '../../../auth/guard';
import type { Deps } from '../../../deps';
import { notFound } from '../../../http/errors';
import { readableUserId } from '../../../shared/readable-user';
import { MessageSchema, SECURE_ERRORS } from '../../../http/route-schemas';
import { createProfileChangeRequest } from './filing';
import { reviewProfileChange } from './review';
import { WITH_USER, profileChangeView } from './view';
import { REVIEW_CONFIG, filingRoute, processing, readAnswers, reviewAnswers } from '../../../shared/request-routes';
import { temporalUiOf } from '../../../shared/views';

export const profileChangeRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const temporal = temporalUiOf(deps.cfg);
  const list = async (where: Prisma.ProfileChangeRequestWhereInput) => {
    const rows = await deps.prisma.profileChangeRequest.findMany({
      where,
      include: WITH_USER,
      orderBy: [{ sysdat: 'desc' }, { id: 'desc' }],
      take: 1000,
    });
    return { content: rows.map((r) => profileChangeView(r, temporal)) };
  };
  const listAnswer = { response: { 200: ProfileChangeListSchema, ...SECURE_ERRORS } };

  app.post(PROFILE_CHANGE_BASE, filingRoute(CreateProfileChangeBodySchema, ProfileChangeRequestSchema), async (req) =>
    createProfileChangeRequest(deps, requireAuth(req), req.body),
  );

  app.get(`${PROFILE_CHANGE_BASE}/user`, { schema: listAnswer }, async (req) =>
    list({ portalUserId: requireAuth(req).userId }),
  );

  app.get(
    `${PROFILE_CHANGE_BASE}/user/:userId`,
    {
      schema: {
        params: z.object({ userId: PathIdSchema }),
        response: { ...listAnswer.response, 404: MessageSchema },
      },
    },
    async (req) => {
      const message = PROFILE_CHANGE_MESSAGES.loadFailed;
      return list({ portalUserId: await readableUserId(deps.prisma, requireAuth(req), req.params.userId, message) });
    },
  );

  app.get(PROFILE_CHANGE_BASE, { config: { permission: 'READ_USERS' }, schema: listAnswer }, async () => list({}));

  app.get(
    `${PROFILE_CHANGE_BASE}/status/:status`,
    { config: { permission: 'READ_USERS' }, schema: { params: ProfileChangeStatusParamsSchema, ...listAnswer } },
    async (req) => {
      const { status } = req.params;
      if (status === 'all') return list({});
      if (status === 'pending') return list({ requestStatus: { notIn: [...RESOLVED_STATUSES] } });
      return list({ requestStatus: status });
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
      return profileChangeView(row, temporal);
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
    async (req, reply) => processing(reply, await reviewProfileChange(deps, requireAuth(req), req.params.id, req.body)),
  );
};

/**
 * Lists of access-modification requests (001 §7): one user's (GET .../user/{userId}: the user themself, or
 * READ_USERS; anyone else gets the unknown user's 404, as for one request), all of them (GET .../) and those
 * in one status (GET .../status/{status}), both READ_USERS. Each answers the spec's page envelope around the
 * 001 §3 request shape, newest first (query page, size: 1-based, default 1 and 300 as for registrations), or,
 * for the load-all size (000 §9), the whole list as one page, streamed (shared/stream-page.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { FastifyReply } from 'fastify';
import {
  AccessModRequestSchema,
  AccessModStatusParamsSchema,
  type FetchPageQuery,
  FetchPageQuerySchema,
  MESSAGES,
  PathIdSchema,
} from '@portal/contract';
import { requireAuth } from '../../../auth/guard';
import type { Deps } from '../../../deps';
import { MessageSchema, SECURE_ERRORS, pageSchema } from '../../../http/route-schemas';
import { readableUserId } from '../../../shared/readable-user';
import { answerList } from '../../../shared/stream-page';
import { REQUEST_LIST_SORT } from '../../../shared/request-list-sql';
import { type AccessModSelection, accessModListSql, accessModRowJson, parseAccessModRows } from './list-sql';
import { accessModRequestView } from './view';
import { temporalUiOf } from '../../../shared/views';
import { withRequestSignatures } from '../../../shared/request-signatures';

const ListResponse = { 200: pageSchema(AccessModRequestSchema), ...SECURE_ERRORS };

export const accessChangeListRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const temporal = temporalUiOf(deps.cfg);

  const views = (rows: unknown[]) => parseAccessModRows(rows).map((r) => accessModRequestView(r, temporal));
  const json = accessModRowJson(temporal);
  // With signatures on, a user's history carries its signatures (shared/request-signatures.ts).
  const signed =
    deps.cfg.SIGNATURES === 'on'
      ? (rows: ReturnType<typeof views>) => withRequestSignatures(deps, 'AccessModRequest', rows)
      : undefined;
  /**
   * One page of `sel` with its total, or the whole of it streamed for the load-all size (000 §9); a user's
   * history (`history`) with its signatures when they are on.
   */
  const list = (reply: FastifyReply, sel: AccessModSelection, q: FetchPageQuery, history = false) =>
    answerList(
      deps.prisma,
      reply,
      (page) => accessModListSql(sel, page),
      q,
      REQUEST_LIST_SORT,
      views,
      json,
      history ? signed : undefined,
    );

  app.get(
    '/rest/secure/user_access_mod_request/user/:userId',
    {
      schema: {
        params: z.object({ userId: PathIdSchema }),
        querystring: FetchPageQuerySchema,
        response: { ...ListResponse, 404: MessageSchema },
      },
    },
    async (req, reply) => {
      const message = MESSAGES.access.loadRequestsFailed;
      const userId = await readableUserId(deps.prisma, requireAuth(req), req.params.userId, message);
      return list(reply, { subjectUserId: userId }, req.query, true);
    },
  );

  app.get(
    '/rest/secure/user_access_mod_request/',
    { config: { permission: 'READ_USERS' }, schema: { querystring: FetchPageQuerySchema, response: ListResponse } },
    async (req, reply) => list(reply, 'all', req.query),
  );

  app.get(
    '/rest/secure/user_access_mod_request/status/:status',
    {
      config: { permission: 'READ_USERS' },
      schema: { params: AccessModStatusParamsSchema, querystring: FetchPageQuerySchema, response: ListResponse },
    },
    async (req, reply) => list(reply, { status: req.params.status }, req.query),
  );
};

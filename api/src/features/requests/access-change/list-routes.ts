/**
 * Lists of access-modification requests (001 §7): one user's (GET .../user/{userId}: the user themself, or
 * READ_USERS; anyone else gets the unknown user's 404, as for one request), all of them (GET .../) and those
 * in one status (GET .../status/{status}), both READ_USERS. Each answers the spec's page envelope around the
 * 001 §3 request shape, newest first (query page, size: 1-based, default 1 and 300 as for registrations).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AccessModRequestSchema,
  AccessModStatusParamsSchema,
  MESSAGES,
  PathIdSchema,
  queryIntSchema,
} from '@portal/contract';
import type { Prisma } from '@portal/db';
import { requireAuth } from '../../../auth/guard';
import type { Deps } from '../../../deps';
import { pageWindow, toPage } from '../../../http/page';
import { MessageSchema, SECURE_ERRORS, pageSchema } from '../../../http/route-schemas';
import { readableUserId } from '../../../shared/readable-user';
import { accessModRequestView } from './view';
import { temporalUiOf } from '../../../shared/views';

const ListQuerySchema = z.object({ page: queryIntSchema(1, 1_000_000, 1), size: queryIntSchema(1, 1000, 300) });
const ListResponse = { 200: pageSchema(AccessModRequestSchema), ...SECURE_ERRORS };
const SORT = 'sysdat,desc';

export const accessChangeListRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const temporal = temporalUiOf(deps.cfg);

  /** One page of requests matching `where`, newest first. */
  const list = async (where: Prisma.AccessModRequestWhereInput, q: z.infer<typeof ListQuerySchema>) => {
    const [total, rows] = await Promise.all([
      deps.prisma.accessModRequest.count({ where }),
      deps.prisma.accessModRequest.findMany({
        where,
        orderBy: [{ sysdat: 'desc' }, { id: 'desc' }],
        include: { subject: true, requester: true },
        ...pageWindow(q),
      }),
    ]);
    return toPage(
      rows.map((r) => accessModRequestView(r, temporal)),
      total,
      q,
      SORT,
    );
  };

  app.get(
    '/rest/secure/user_access_mod_request/user/:userId',
    {
      schema: {
        params: z.object({ userId: PathIdSchema }),
        querystring: ListQuerySchema,
        response: { ...ListResponse, 404: MessageSchema },
      },
    },
    async (req) => {
      const message = MESSAGES.access.loadRequestsFailed;
      const userId = await readableUserId(deps.prisma, requireAuth(req), req.params.userId, message);
      return list({ subjectUserId: userId }, req.query);
    },
  );

  app.get(
    '/rest/secure/user_access_mod_request/',
    { config: { permission: 'READ_USERS' }, schema: { querystring: ListQuerySchema, response: ListResponse } },
    async (req) => list({}, req.query),
  );

  app.get(
    '/rest/secure/user_access_mod_request/status/:status',
    {
      config: { permission: 'READ_USERS' },
      schema: { params: AccessModStatusParamsSchema, querystring: ListQuerySchema, response: ListResponse },
    },
    async (req) => list({ requestStatus: req.params.status }, req.query),
  );
};

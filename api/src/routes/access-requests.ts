/** Access-modification requests and the reviewer queue (001 §7; 000 §7 User management). */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  CreateAccessModRequestBodySchema,
  PageQuerySchema,
  ReviewAccessChangeBodySchema,
  UserRequestsStatusSchema,
} from '@portal/contract';
import { requireAuth } from '../auth/guard';
import type { Deps } from '../deps';
import { forbidden, notFound } from '../http/errors';
import { parseInput } from '../http/validate';
import { createAccessModRequest } from '../services/access-requests';
import { reviewAccessChange } from '../services/review';
import { USER_REQUEST_SORT_FIELDS, listUserRequests } from '../services/user-requests';
import { accessModRequestView } from '../services/views';

const IdParams = z.object({ id: z.coerce.number().int().positive() });
const QueueQuery = PageQuerySchema.extend({
  sort: z
    .string()
    .regex(new RegExp(`^(${USER_REQUEST_SORT_FIELDS.join('|')})(,(asc|desc))?$`))
    .optional(),
});

export function registerAccessRequestRoutes(app: FastifyInstance, deps: Deps): void {
  const temporal = { uiUrl: deps.cfg.TEMPORAL_UI_URL, namespace: deps.cfg.TEMPORAL_NAMESPACE };

  app.post('/user_access_mod_request', async (req) => {
    const actor = requireAuth(req, 'USER');
    const body = parseInput(CreateAccessModRequestBodySchema, req.body);
    return createAccessModRequest(deps, actor, body);
  });

  app.get('/user_access_mod_request/user', async (req) => {
    const actor = requireAuth(req);
    const rows = await deps.prisma.accessModRequest.findMany({
      where: { subjectUserId: actor.userId },
      orderBy: [{ sysdat: 'desc' }, { id: 'desc' }],
      include: { subject: true, requester: true },
    });
    return { content: rows.map((r) => accessModRequestView(r, temporal)) };
  });

  app.get('/user_access_mod_request/:id', async (req) => {
    const actor = requireAuth(req);
    const { id } = parseInput(IdParams, req.params);
    const row = await deps.prisma.accessModRequest.findUnique({
      where: { id },
      include: { subject: true, requester: true },
    });
    if (!row) throw notFound('Problem loading user-access modification request(s).');
    const own = row.subjectUserId === actor.userId || row.requesterUserId === actor.userId;
    if (!own && !actor.permissions.includes('READ_USERS')) throw forbidden();
    return accessModRequestView(row, temporal);
  });

  app.get('/user_management/user_requests/:status', async (req) => {
    requireAuth(req, 'READ_USERS');
    const { status } = parseInput(z.object({ status: UserRequestsStatusSchema }), req.params);
    const query = parseInput(QueueQuery, req.query);
    return listUserRequests(deps.prisma, status, query);
  });

  app.put('/user_management/review_access_change_request', async (req) => {
    const actor = requireAuth(req, 'WRITE_USERS');
    const body = parseInput(ReviewAccessChangeBodySchema, req.body);
    return reviewAccessChange(deps, actor, body);
  });
}

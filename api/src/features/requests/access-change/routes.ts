/** Access-modification requests: filing, reading and reviewing (001 §7, 000 §7 review_access_change_request). */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { CreateAccessModRequestBodySchema, ReviewAccessChangeBodySchema } from '@portal/contract';
import { requireAuth } from '../../../auth/guard';
import type { Deps } from '../../../deps';
import { forbidden, notFound } from '../../../http/errors';
import { parseInput } from '../../../http/validate';
import { createAccessModRequest } from './filing';
import { reviewAccessChange } from './review';
import { accessModRequestView } from './view';

const IdParams = z.object({ id: z.coerce.number().int().positive() });
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

  app.put('/user_management/review_access_change_request', async (req, reply) => {
    const actor = requireAuth(req, 'WRITE_USERS');
    const body = parseInput(ReviewAccessChangeBodySchema, req.body);
    const answer = await reviewAccessChange(deps, actor, body);
    // 202: the save is still being processed; the same attempt key may be sent again (REQUEST-LIFECYCLE rule 6).
    if ('status' in answer && answer.status === 'PROCESSING') reply.code(202);
    return answer;
  });
}

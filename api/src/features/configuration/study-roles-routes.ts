/**
 * Study roles under /rest/secure/system_mgmt/study_role (001 §7 Study roles). Reading needs READ_USERS,
 * changing needs ADMIN (docs/decisions.md).
 */
import type { FastifyInstance } from 'fastify';
import { StudyRoleBodySchema } from '@portal/contract';
import { requireAuth } from '../../auth/guard';
import type { Deps } from '../../deps';
import { parseInput } from '../../http/validate';
import {
  outstandingRequestsOfStudyRole,
  pendingUsersReferencing,
  usersOfStudyRole,
} from '../../services/config-in-use';
import {
  createStudyRole,
  getStudyRole,
  listStudyRoles,
  toggleStudyRole,
  updateStudyRole,
} from '../../services/config-study-roles';
import { IdParams, actorOf, route } from './route';

const BASE = '/system_mgmt/study_role';

export function registerStudyRoleRoutes(app: FastifyInstance, deps: Deps): void {
  const { prisma } = deps;

  route(app, 'GET', `${BASE}/`, async (req) => {
    requireAuth(req, 'READ_USERS');
    return listStudyRoles(prisma);
  });

  route(app, 'GET', `${BASE}/:id`, async (req) => {
    requireAuth(req, 'READ_USERS');
    const { id } = parseInput(IdParams, req.params);
    return getStudyRole(prisma, id);
  });

  route(app, 'POST', `${BASE}/`, async (req) => {
    const auth = requireAuth(req, 'ADMIN');
    const body = parseInput(StudyRoleBodySchema, req.body);
    return createStudyRole(prisma, actorOf(auth), body);
  });

  route(app, 'PUT', `${BASE}/:id`, async (req) => {
    const auth = requireAuth(req, 'ADMIN');
    const { id } = parseInput(IdParams, req.params);
    const body = parseInput(StudyRoleBodySchema, req.body);
    return updateStudyRole(prisma, actorOf(auth), id, body);
  });

  for (const action of ['activate', 'deactivate'] as const) {
    route(app, 'PUT', `${BASE}/:id/${action}`, async (req) => {
      const auth = requireAuth(req, 'ADMIN');
      const { id } = parseInput(IdParams, req.params);
      return toggleStudyRole(prisma, actorOf(auth), id, action);
    });
  }

  route(app, 'GET', `${BASE}/:id/inUseByUser`, async (req) => {
    requireAuth(req, 'READ_USERS');
    const { id } = parseInput(IdParams, req.params);
    return usersOfStudyRole(prisma, (await getStudyRole(prisma, id)).roleName);
  });

  route(app, 'GET', `${BASE}/:id/inUseByPendingUser`, async (req) => {
    requireAuth(req, 'READ_USERS');
    const { id } = parseInput(IdParams, req.params);
    await getStudyRole(prisma, id);
    return pendingUsersReferencing();
  });

  route(app, 'GET', `${BASE}/:id/inUseByOutstandingUserAccessMod`, async (req) => {
    requireAuth(req, 'READ_USERS');
    const { id } = parseInput(IdParams, req.params);
    return outstandingRequestsOfStudyRole(prisma, (await getStudyRole(prisma, id)).roleName);
  });
}

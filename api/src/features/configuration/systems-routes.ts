/**
 * Systems under /rest/secure/system_mgmt/system_access (001 §7 Systems). Reading needs READ_USERS, changing
 * needs ADMIN (docs/decisions.md).
 */
import type { FastifyInstance } from 'fastify';
import { SystemBodySchema } from '@portal/contract';
import { requireAuth } from '../../auth/guard';
import type { Deps } from '../../deps';
import { parseInput } from '../../http/validate';
import {
  outstandingRequestsOfSystem,
  pendingUsersReferencing,
  studyRolesOfSystem,
  usersOfSystem,
} from '../../services/config-in-use';
import { createSystem, getSystem, listSystems, toggleSystem, updateSystem } from '../../services/config-systems';
import { IdParams, actorOf, route } from './route';

const BASE = '/system_mgmt/system_access';

export function registerSystemRoutes(app: FastifyInstance, deps: Deps): void {
  const { prisma } = deps;

  route(app, 'GET', `${BASE}/`, async (req) => {
    requireAuth(req, 'READ_USERS');
    return listSystems(prisma);
  });

  route(app, 'GET', `${BASE}/:id`, async (req) => {
    requireAuth(req, 'READ_USERS');
    const { id } = parseInput(IdParams, req.params);
    return getSystem(prisma, id);
  });

  route(app, 'POST', `${BASE}/`, async (req) => {
    const auth = requireAuth(req, 'ADMIN');
    const body = parseInput(SystemBodySchema, req.body);
    return createSystem(prisma, actorOf(auth), body);
  });

  route(app, 'PUT', `${BASE}/:id`, async (req) => {
    const auth = requireAuth(req, 'ADMIN');
    const { id } = parseInput(IdParams, req.params);
    const body = parseInput(SystemBodySchema, req.body);
    return updateSystem(prisma, actorOf(auth), id, body);
  });

  for (const action of ['activate', 'deactivate'] as const) {
    route(app, 'PUT', `${BASE}/:id/${action}/`, async (req) => {
      const auth = requireAuth(req, 'ADMIN');
      const { id } = parseInput(IdParams, req.params);
      return toggleSystem(prisma, actorOf(auth), id, action);
    });
  }

  const inUse = {
    inUseByStudyRole: (id: number) => studyRolesOfSystem(prisma, id),
    inUseByUser: (id: number) => usersOfSystem(prisma, id),
    inUseByPendingUser: () => pendingUsersReferencing(),
    inUseByOutstandingUserAccessMod: (id: number) => outstandingRequestsOfSystem(prisma, id),
  };
  for (const [name, load] of Object.entries(inUse)) {
    route(app, 'GET', `${BASE}/:id/${name}`, async (req) => {
      requireAuth(req, 'READ_USERS');
      const { id } = parseInput(IdParams, req.params);
      await getSystem(prisma, id);
      return load(id);
    });
  }
}

/**
 * Portal roles under /rest/secure/system_mgmt/portal_roles (001 §7 Portal roles). Reading needs READ_USERS,
 * changing needs ADMIN (the spec leaves the gating open: docs/decisions.md).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PortalRoleCreateBodySchema, PortalRoleUpdateBodySchema, ToggleActionSchema } from '@portal/contract';
import { requireAuth } from '../../auth/guard';
import type { Deps } from '../../deps';
import { parseInput } from '../../http/validate';
import { usersOfPortalRole } from '../../services/config-in-use';
import {
  createPortalRole,
  getPortalRole,
  listPortalRoles,
  togglePortalRole,
  updatePortalRole,
} from '../../services/config-portal-roles';
import { IdParams, actorOf, route } from './route';

const BASE = '/system_mgmt/portal_roles';
const GetAllQuery = z.object({ includeBasic: z.enum(['true', 'false']).optional() });
const ToggleParams = IdParams.extend({ action: ToggleActionSchema });

export function registerPortalRoleRoutes(app: FastifyInstance, deps: Deps): void {
  const { prisma } = deps;

  /** GET getAll[?includeBasic=true]: every role, active or not; basic roles (USER / SET_OWN_PASSWORD only) on request. */
  route(app, 'GET', `${BASE}/getAll`, async (req) => {
    requireAuth(req, 'READ_USERS');
    const { includeBasic } = parseInput(GetAllQuery, req.query);
    return listPortalRoles(prisma, includeBasic === 'true');
  });

  route(app, 'GET', `${BASE}/:id`, async (req) => {
    requireAuth(req, 'READ_USERS');
    const { id } = parseInput(IdParams, req.params);
    return getPortalRole(prisma, id);
  });

  /** GET {id}/inUseByUser: the active users holding the role (the 'Delete Portal Role?' count). */
  route(app, 'GET', `${BASE}/:id/inUseByUser`, async (req) => {
    requireAuth(req, 'READ_USERS');
    const { id } = parseInput(IdParams, req.params);
    await getPortalRole(prisma, id);
    return usersOfPortalRole(prisma, id);
  });

  /** PUT {activate|deactivate}/{id}: 001 §4 only these two actions are valid; any other is refused (422). */
  route(app, 'PUT', `${BASE}/:action/:id`, async (req) => {
    const auth = requireAuth(req, 'ADMIN');
    const { action, id } = parseInput(ToggleParams, req.params);
    return togglePortalRole(prisma, actorOf(auth), id, action);
  });

  route(app, 'PUT', `${BASE}/update`, async (req) => {
    const auth = requireAuth(req, 'ADMIN');
    const body = parseInput(PortalRoleUpdateBodySchema, req.body);
    return updatePortalRole(prisma, actorOf(auth), body);
  });

  route(app, 'POST', `${BASE}/create`, async (req) => {
    const auth = requireAuth(req, 'ADMIN');
    const body = parseInput(PortalRoleCreateBodySchema, req.body);
    return createPortalRole(prisma, actorOf(auth), body);
  });
}

/** Portal roles under /rest/secure/system_mgmt/portal_roles (001 §7 Portal roles). */
import { z } from 'zod';
import {
  IdParamsSchema,
  PortalRoleCreateBodySchema,
  PortalRoleSchema,
  PortalRoleUpdateBodySchema,
  ToggleActionSchema,
  UserRefSchema,
} from '@portal/contract';
import { requireAuth } from '../../auth/guard';
import type { Deps } from '../../deps';
import { NoBodySchema, type ZodApp } from '../../http/route-schemas';
import { usersOfPortalRole } from './in-use';
import { createPortalRole, getPortalRole, listPortalRoles, togglePortalRole, updatePortalRole } from './portal-roles';
import { CHANGE, READ, actorOf, answers } from './route-options';

const BASE = '/rest/secure/system_mgmt/portal_roles';
const GetAllQuery = z.object({ includeBasic: z.enum(['true', 'false']).optional() });
const ToggleParams = IdParamsSchema.extend({ action: ToggleActionSchema });

export function registerPortalRoleRoutes(app: ZodApp, deps: Deps): void {
  const { prisma } = deps;

  /** GET getAll[?includeBasic=true]: every role, active or not; basic roles (USER / SET_OWN_PASSWORD only) on request. */
  app.get(
    `${BASE}/getAll`,
    { config: READ, schema: { querystring: GetAllQuery, response: answers(z.array(PortalRoleSchema)) } },
    async (req) => listPortalRoles(prisma, req.query.includeBasic === 'true'),
  );

  app.get(
    `${BASE}/:id`,
    { config: READ, schema: { params: IdParamsSchema, response: answers(PortalRoleSchema) } },
    async (req) => getPortalRole(prisma, req.params.id),
  );

  /** GET {id}/inUseByUser: the active users holding the role (the 'Delete Portal Role?' count). */
  app.get(
    `${BASE}/:id/inUseByUser`,
    { config: READ, schema: { params: IdParamsSchema, response: answers(z.array(UserRefSchema)) } },
    async (req) => {
      await getPortalRole(prisma, req.params.id);
      return usersOfPortalRole(prisma, req.params.id);
    },
  );

  /** PUT {activate|deactivate}/{id}: 001 §4 only these two actions are valid; any other is refused (422). */
  app.put(
    `${BASE}/:action/:id`,
    { config: CHANGE, schema: { params: ToggleParams, body: NoBodySchema, response: answers(PortalRoleSchema) } },
    async (req) => togglePortalRole(prisma, actorOf(requireAuth(req)), req.params.id, req.params.action),
  );

  app.put(
    `${BASE}/update`,
    { config: CHANGE, schema: { body: PortalRoleUpdateBodySchema, response: answers(PortalRoleSchema) } },
    async (req) => updatePortalRole(prisma, actorOf(requireAuth(req)), req.body),
  );

  app.post(
    `${BASE}/create`,
    { config: CHANGE, schema: { body: PortalRoleCreateBodySchema, response: answers(PortalRoleSchema) } },
    async (req) => createPortalRole(prisma, actorOf(requireAuth(req)), req.body),
  );
}

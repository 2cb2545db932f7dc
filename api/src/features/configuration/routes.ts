/**
 * The configuration calls of 001 §7 (Systems, Study roles, Portal roles) and a system's single sign-on client
 * (issue 22) under /rest/secure/system_mgmt, one plugin. Reading needs READ_USERS, changing needs ADMIN (the spec leaves the gating open:
 * docs/decisions.md); each route declares its permission and schemas.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../deps';
import { registerPortalRoleRoutes } from './portal-roles-routes';
import { registerStudyRoleRoutes } from './study-roles-routes';
import { registerSsoClientRoutes } from './sso-clients-routes';
import { registerSystemRoutes } from './systems-routes';

export const configurationRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  registerPortalRoleRoutes(app, deps);
  registerStudyRoleRoutes(app, deps);
  registerSystemRoutes(app, deps);
  registerSsoClientRoutes(app, deps);
};

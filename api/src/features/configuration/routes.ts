/** The configuration calls of 001 §7 (Systems, Study roles, Portal roles), registered in the /rest/secure scope. */
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps';
import { registerPortalRoleRoutes } from './portal-roles';
import { registerStudyRoleRoutes } from './study-roles';
import { registerSystemRoutes } from './systems';

export function registerConfigurationRoutes(app: FastifyInstance, deps: Deps): void {
  registerPortalRoleRoutes(app, deps);
  registerStudyRoleRoutes(app, deps);
  registerSystemRoutes(app, deps);
}

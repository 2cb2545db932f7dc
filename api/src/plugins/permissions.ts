/**
 * The permission guard as an app plugin (000 §6; issue 8): a route names the permission it needs in its
 * options, `config: { permission: 'READ_USERS' }`, and this plugin checks it in an onRequest hook that runs
 * right after the session guard. So a caller without the permission gets 403 'You are not authorized to
 * view this page' before the body is parsed or validated: never a 422 that lists field names. A /rest/secure
 * route without `permission` is open to any signed-in user. Declaring a permission on a route outside
 * /rest/secure is a programming error and stops the start-up.
 */
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { type Permission, hasAllPermissions } from '@portal/contract';
import { forbidden, unauthenticated } from '../http/errors';
import { appPlugin } from './app-plugin';
import { SECURE_PREFIX, hookList } from './session';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The permission the caller must hold (000 §6); absent: any signed-in user. */
    permission?: Permission;
  }
}

/** onRequest hook refusing callers without `permission` (the session guard has set `req.auth`). */
export const requirePermission =
  (permission: Permission): onRequestHookHandler =>
  async (req) => {
    if (!req.auth) throw unauthenticated();
    if (!hasAllPermissions(req.auth.permissions, [permission])) throw forbidden();
  };

export const permissionGuard = appPlugin(async (app: FastifyInstance) => {
  app.addHook('onRoute', (route) => {
    const permission = route.config?.permission;
    if (!permission) return;
    if (!route.url.startsWith(SECURE_PREFIX)) {
      throw new Error(`${String(route.method)} ${route.url}: a permission needs the /rest/secure session guard`);
    }
    const hooks = hookList(route.onRequest as onRequestHookHandler | onRequestHookHandler[]);
    route.onRequest = [...hooks, requirePermission(permission)];
  });
});

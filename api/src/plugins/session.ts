/**
 * The session guard as an app plugin (000 §4 Secure page, §7 "secure calls"): every route under
 * `/rest/secure/` runs `authenticate` (auth/guard.ts: live session, XSRF header, active user, the
 * FORCE_CHANGE limit) first in its onRequest hooks, before its permission check, body parsing and
 * validation. `req.auth` is the signed-in user from then on.
 */
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { authenticate } from '../auth/guard';
import type { Deps } from '../deps';
import { attachSessionCache, detachSessionCache, SessionCache } from '../auth/session-cache';
import { listenForSessionChanges } from '../auth/session-notify';
import { attachSqlPool, detachSqlPool } from '../shared/sql';
import { appPlugin } from './app-plugin';

/** Every URL under this prefix needs a session. */
export const SECURE_PREFIX = '/rest/secure/';

/** Route-level hooks of a route, as a list. */
export const hookList = (hooks: onRequestHookHandler | onRequestHookHandler[] | undefined): onRequestHookHandler[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];

export const sessionGuard = appPlugin(async (app: FastifyInstance, { deps }: { deps: Deps }) => {
  app.decorateRequest('auth', null);
  // The session look-up, the hot reads and the filing transactions run on small pools of their own
  // (shared/sql.ts), ended with the app.
  const pools = attachSqlPool(deps.prisma, deps.cfg.DATABASE_URL, (err) =>
    app.log.warn({ err }, 'hot-read pool: an idle connection failed'),
  );
  // Session look-ups are cached while a listener hears PostgreSQL's session_changed notifications.
  const cache = new SessionCache();
  attachSessionCache(deps.prisma, cache);
  const listener = listenForSessionChanges(deps.cfg.DATABASE_URL, cache, (event, err) =>
    event === 'lost'
      ? app.log.warn({ err }, 'session listener: connection lost, session cache bypassed until it listens again')
      : app.log.info('session listener: listening, session cache in use'),
  );
  await listener.ready;
  app.addHook('onClose', async () => {
    detachSessionCache(deps.prisma);
    await listener.close();
    detachSqlPool(deps.prisma);
    await pools.end();
  });
  const guard = authenticate(deps) as onRequestHookHandler;
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(SECURE_PREFIX)) return;
    route.onRequest = [guard, ...hookList(route.onRequest as onRequestHookHandler | onRequestHookHandler[])];
  });
});

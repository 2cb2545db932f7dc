/**
 * Builds the Fastify app: cookies, the error handler, public routes, the guarded /rest/secure scope and,
 * when WEB_DIST is set, the built web app with a single-page fallback for non-/rest paths.
 */
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { authenticate } from './auth/guard';
import { registerSecurity } from './auth/security';
import type { Deps } from './deps';
import { registerErrorHandler, registerNotFoundHandler } from './http/error-handler';
import { registerRequestRoutes } from './features/requests';
import { registerAuditRoutes } from './routes/audit';
import { registerConfigurationRoutes } from './routes/configuration';
import { registerPublicAuthRoutes, registerSecureAuthRoutes } from './routes/auth';
import { registerPublicPasswordRoutes, registerSecurePasswordRoutes } from './routes/password';
import { registerPasswordAdminRoutes } from './routes/password-admin';
import { registerProfileRoutes } from './routes/profile';
import { registerReferenceRoutes, registerSecureReferenceRoutes } from './routes/reference';

export async function buildServer(deps: Deps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.cfg.LOG_LEVEL === 'silent' ? false : { level: deps.cfg.LOG_LEVEL },
    bodyLimit: 1024 * 1024,
    trustProxy: true,
  });
  await app.register(cookie);
  await registerSecurity(app, deps.cfg);
  app.decorateRequest('auth', null);
  registerErrorHandler(app);
  // Every /rest answer is live data: the browser must not cache it (000 §7 "disable caching"), except what
  // a route marks itself (reference data: stored, revalidated with its ETag on every use).
  app.addHook('onSend', async (req, reply) => {
    if (req.url.startsWith('/rest/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });

  registerPublicAuthRoutes(app, deps);
  registerPublicPasswordRoutes(app, deps);
  registerReferenceRoutes(app, deps);

  await app.register(
    async (secure) => {
      secure.addHook('onRequest', authenticate(deps));
      registerSecureAuthRoutes(secure, deps);
      registerSecurePasswordRoutes(secure, deps);
      registerPasswordAdminRoutes(secure, deps);
      registerProfileRoutes(secure, deps);
      registerRequestRoutes(secure, deps);
      registerSecureReferenceRoutes(secure, deps);
      registerConfigurationRoutes(secure, deps);
      registerAuditRoutes(secure, deps);
    },
    { prefix: '/rest/secure' },
  );

  const dist = deps.cfg.WEB_DIST;
  if (dist && fs.existsSync(path.join(dist, 'index.html'))) {
    await app.register(fastifyStatic, { root: path.resolve(dist) });
    registerNotFoundHandler(app, (reply) => reply.sendFile('index.html'));
  } else {
    registerNotFoundHandler(app);
  }
  return app;
}

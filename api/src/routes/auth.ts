/** Authentication and session calls (000 §7 Authentication and session). */
import type { FastifyInstance } from 'fastify';
import { CONSTANTS, TokenCreateBodySchema } from '@portal/contract';
import { requireAuth } from '../auth/guard';
import { createSession, invalidateSession } from '../auth/session';
import type { Deps } from '../deps';
import { parseInput } from '../http/validate';
import { signIn } from '../services/sign-in';

function cookieOptions(deps: Deps) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: deps.cfg.COOKIE_SECURE,
    maxAge: deps.cfg.SESSION_TIMEOUT_SECONDS,
  };
}

/** POST /rest/token/create (public). */
export function registerPublicAuthRoutes(app: FastifyInstance, deps: Deps): void {
  app.post('/rest/token/create', async (req, reply) => {
    const body = parseInput(TokenCreateBodySchema, req.body);
    const result = await signIn(deps, body.username, body.password);
    if (!result.ok) return reply.code(result.status).send(result.body);
    const { token, xsrfToken } = await createSession(
      deps.prisma,
      result.portalUserId,
      deps.cfg.SESSION_TIMEOUT_SECONDS,
    );
    reply.setCookie(CONSTANTS.sessionCookie, token, cookieOptions(deps));
    return { tokenTimeoutInSeconds: deps.cfg.SESSION_TIMEOUT_SECONDS, passwordExpiresSoon: false, xsrfToken };
  });
}

/** Secure session calls: invalidate, refresh, granted permissions. */
export function registerSecureAuthRoutes(app: FastifyInstance, deps: Deps): void {
  app.post('/token/invalidate', async (req, reply) => {
    const auth = requireAuth(req);
    await invalidateSession(deps.prisma, auth.sessionToken);
    reply.clearCookie(CONSTANTS.sessionCookie, { path: '/' });
    return {};
  });

  app.get('/token/refresh', async (req, reply) => {
    const auth = requireAuth(req);
    // The guard already slid the server-side expiry; renew the cookie's lifetime to match.
    reply.setCookie(CONSTANTS.sessionCookie, auth.sessionToken, cookieOptions(deps));
    return { tokenTimeoutInSeconds: deps.cfg.SESSION_TIMEOUT_SECONDS };
  });

  app.get('/user_capabilities/granted_permissions', async (req) => requireAuth(req).permissions);
}

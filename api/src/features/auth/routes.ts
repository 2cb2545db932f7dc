/** Authentication and session calls (000 §7 Authentication and session). */
import type { FastifyInstance } from 'fastify';
import { MESSAGES, TokenCreateBodySchema, type TokenCreateResponse } from '@portal/contract';
import { clearSessionCookie, setSessionCookie } from '../auth/cookies';
import { requireAuth } from '../auth/guard';
import { signInRateLimit } from '../auth/security';
import { createSession, invalidateSession } from '../auth/session';
import type { Deps } from '../deps';
import { unavailable } from '../http/errors';
import { parseInput } from '../http/validate';
import { passwordCapabilities } from '../services/password-account';
import { signIn } from '../services/sign-in';

/** POST /rest/token/create (public, rate-limited per client address and username). */
export function registerPublicAuthRoutes(app: FastifyInstance, deps: Deps): void {
  app.post('/rest/token/create', { config: { rateLimit: signInRateLimit(deps.cfg) } }, async (req, reply) => {
    const body = parseInput(TokenCreateBodySchema, req.body);
    const result = await signIn(deps, body.username, body.password);
    if (!result.ok) return reply.code(result.status).send(result.body);
    const force = result.expiryState === 'ForceUserToChangePassword';
    const timeout = deps.cfg.SESSION_TIMEOUT_SECONDS;
    const { token, xsrfToken } = await createSession(deps.prisma, result.portalUserId, timeout, force);
    setSessionCookie(deps, req, reply, token);
    const answer: TokenCreateResponse = {
      tokenTimeoutInSeconds: timeout,
      passwordExpiresSoon: !!result.expiryState,
      ...(result.expiryState ? { expiryState: result.expiryState } : {}),
      xsrfToken,
    };
    return answer;
  });
}

/** Secure session calls: invalidate, refresh, granted permissions, password-change capabilities. */
export function registerSecureAuthRoutes(app: FastifyInstance, deps: Deps): void {
  app.post('/token/invalidate', async (req, reply) => {
    const auth = requireAuth(req);
    await invalidateSession(deps.prisma, auth.sessionToken);
    clearSessionCookie(deps, req, reply);
    return {};
  });

  // The guard has already slid the session's expiry (000 §4 Session timeout: refresh extends it).
  app.get('/token/refresh', async (req) => {
    requireAuth(req);
    return { tokenTimeoutInSeconds: deps.cfg.SESSION_TIMEOUT_SECONDS };
  });

  app.get('/user_capabilities/granted_permissions', async (req) => requireAuth(req).permissions);

  const capability = (which: 'ever' | 'now') => async (req: Parameters<typeof requireAuth>[0]) => {
    const auth = requireAuth(req);
    const user = await deps.prisma.portalUser.findUniqueOrThrow({ where: { id: auth.userId } });
    try {
      return (await passwordCapabilities(deps, user))[which];
    } catch {
      throw unavailable(MESSAGES.signIn.unspecifiedFailure);
    }
  };
  app.get('/user_capabilities/can_change_password_ever', capability('ever'));
  app.get('/user_capabilities/can_change_password_now', capability('now'));
}

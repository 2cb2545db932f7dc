/**
 * The secure-route guard (000 §4 Secure page, §7 "secure calls"): a live session cookie (else 401 'Please
 * sign in'), the XSRF header equal to the session's token (else 403), an active user (else 401), and, per
 * route, the permission the spec names (else 403 'You are not authorized to view this page'). A session
 * opened with an expired or reset password (000 §4 FORCE_CHANGE) holds only SET_OWN_PASSWORD (000 §6) and may
 * only reach the calls of the Change Password screen until the password is changed. PostgreSQL stopped or not
 * answering within DATABASE_DEADLINE_MS answers 503 (AUTH_MESSAGES.databaseUnavailable).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Permission } from '@portal/contract';
import { AUTH_MESSAGES, CONSTANTS, grantedPermissions, hasAllPermissions } from '@portal/contract';
import type { Deps } from '../deps';
import { forbidden, unauthenticated } from '../http/errors';
import { orUnavailable } from '../shared/deadline';
import { tokensEqual, touchSession } from './session';

export interface AuthContext {
  sessionToken: string;
  userId: number;
  username: string;
  firstName: string;
  lastName: string;
  email: string;
  permissions: Permission[];
  /** 000 §4 FORCE_CHANGE: nothing but the password change until it is done. */
  passwordChangeRequired: boolean;
  /** Issue 37: the sign-in's second step is still to be taken; nothing else may be called. */
  secondFactorPending: boolean;
  /**
   * Issue 37: the person must use a second factor and has none; only enrolment (and sign-out) may be called
   * until one signs them in. `permissions` are then none.
   */
  secondFactorEnrolmentDue: boolean;
  /** Issue 37: when the person last proved who they are in this session (the ID token's `auth_time`). */
  authenticatedAt: Date;
  /**
   * Issue 37: how, as RFC 8176 `amr` values: ['pwd'], ['pwd', 'otp'] after a code, ['pwd', 'hwk'] or
   * ['pwd', 'swk'] after a passkey, ['hwk'] or ['swk'] for a passkey sign-in (docs/decisions.md "Passkeys").
   */
  amr: string[];
}

/** What a session waiting for its second step may call (issue 37): the step (a passkey's options too) and sign-out. */
const SECOND_STEP_ALLOWED = new Set([
  '/rest/secure/token/second_factor',
  '/rest/secure/token/second_factor/webauthn/options',
  '/rest/secure/token/invalidate',
]);

/**
 * What a session due to enrol a second factor may call (issue 37): the person's own enrolment calls (never
 * another person's, which are under /rest/secure/user_management), the session's refresh and sign-out.
 */
function allowedWhileEnrolling(path: string): boolean {
  return (
    path.startsWith('/rest/secure/second_factor') ||
    path === '/rest/secure/token/invalidate' ||
    path === '/rest/secure/token/refresh' ||
    path === '/rest/secure/user_capabilities/granted_permissions'
  );
}

/** What a FORCE_CHANGE session may call (the standalone Change Password screen and sign-out). */
const FORCE_CHANGE_ALLOWED = new Set([
  '/rest/secure/token/invalidate',
  '/rest/secure/token/refresh',
  '/rest/secure/change_password/attempt',
]);

/** Every capability read (granted permissions, the password checks and restriction) is the screen's too. */
const FORCE_CHANGE_ALLOWED_PREFIX = '/rest/secure/user_capabilities/';

/** True when a FORCE_CHANGE session may call `path` (no query, no trailing slash). */
function allowedWhileForced(path: string): boolean {
  return FORCE_CHANGE_ALLOWED.has(path) || path.startsWith(FORCE_CHANGE_ALLOWED_PREFIX);
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

/** onRequest hook for every /rest/secure route. */
export function authenticate(deps: Deps) {
  return async (req: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const token = req.cookies[CONSTANTS.sessionCookie];
    if (!token) throw unauthenticated();
    // PostgreSQL stopped or frozen: 503 within the deadline, never a 500 or a call that hangs (issue 21).
    const session = await orUnavailable(
      AUTH_MESSAGES.databaseUnavailable,
      () => touchSession(deps.prisma, token, deps.cfg.SESSION_TIMEOUT_SECONDS),
      (err) => req.log.error({ err }, 'the session look-up failed'),
    );
    if (!session || session.user.inactive) throw unauthenticated();
    const header = req.headers[CONSTANTS.xsrfHeader];
    if (typeof header !== 'string' || !tokensEqual(header, session.xsrfToken)) {
      throw forbidden('Missing or invalid XSRF token.');
    }
    const restricted = session.passwordChangeRequired;
    // The matched route's pattern, not the raw URL, so no spelling of a path reaches another route's check.
    const path = (req.routeOptions.url ?? req.url.split('?')[0]!).replace(/\/+$/, '');
    // The second step comes before a forced password change (issue 37); a step not taken in time ends it.
    const pending = session.secondFactorDueBy !== null;
    if (pending && session.secondFactorDueBy! <= new Date()) throw unauthenticated();
    if (pending && !SECOND_STEP_ALLOWED.has(path)) throw forbidden();
    if (restricted && !pending && !allowedWhileForced(path)) {
      throw forbidden(AUTH_MESSAGES.expiredBanner);
    }
    // Enrolment comes after both: the person proves the password (and any factor) first.
    const enrolling = session.secondFactorEnrolmentDue && !pending && !restricted;
    if (enrolling && !allowedWhileEnrolling(path)) throw forbidden();
    const u = session.user;
    req.auth = {
      sessionToken: token,
      userId: u.id,
      username: u.username,
      firstName: u.firstName,
      lastName: u.lastName,
      email: u.email,
      permissions:
        pending || enrolling
          ? []
          : restricted
            ? ['SET_OWN_PASSWORD']
            : grantedPermissions(u.portalRoles.filter((r) => !r.role.inactive).flatMap((r) => r.role.permissions)),
      passwordChangeRequired: restricted,
      secondFactorPending: pending,
      secondFactorEnrolmentDue: session.secondFactorEnrolmentDue,
      authenticatedAt: session.authenticatedAt,
      amr: session.amr,
    };
  };
}

/**
 * The signed-in user, requiring `required` permissions.
 * @throws HttpError 401 without a session, 403 without a permission.
 */
export function requireAuth(req: FastifyRequest, ...required: Permission[]): AuthContext {
  if (!req.auth) throw unauthenticated();
  if (!hasAllPermissions(req.auth.permissions, required)) throw forbidden();
  return req.auth;
}

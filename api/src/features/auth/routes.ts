/**
 * Sign-in and session calls (000 §7 Authentication and session): POST /rest/token/create (public,
 * rate-limited per client address and username), and for any signed-in user token/invalidate, token/refresh
 * and user_capabilities/granted_permissions. The password capabilities are the password feature's. A passkey
 * sign-in (POST /rest/token/webauthn/options, then /rest/token/webauthn; passkey-sign-in.ts) and the second
 * step's passkey options (POST /rest/secure/token/second_factor/webauthn/options) are docs/decisions.md
 * "Passkeys".
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CONSTANTS,
  MESSAGES,
  PasskeyOptionsAnswerSchema,
  PasskeySignInBodySchema,
  PermissionListSchema,
  SecondFactorStepBodySchema,
  TokenCreateBodySchema,
  type TokenCreateResponse,
  TokenCreateResponseSchema,
} from '@portal/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clearSessionCookie, setSessionCookie } from '../../auth/cookies';
import { requireAuth } from '../../auth/guard';
import { passkeySignInRateLimit, signInRateLimit } from '../../auth/security';
import { endSsoSessions } from '@portal/db';
import { createSession, invalidateSession } from '../../auth/session';
import type { Deps } from '../../deps';
import { EmptyObjectSchema, MessageSchema, NoBodySchema, SECURE_ERRORS } from '../../http/route-schemas';
import { forbidden } from '../../http/errors';
import { signIn } from './sign-in';
import { assertionOptions, relyingPartyOf } from '../../auth/webauthn';
import { passkeySignIn } from './passkey-sign-in';
import { enrolmentDue } from '../../auth/second-factor-obligation';
import { SECOND_STEP_WINDOW_MS, secondFactorMethods, takeSecondStep } from './second-step';

export const authRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const signInSchema = {
    body: TokenCreateBodySchema,
    response: { 200: TokenCreateResponseSchema, '4xx': TokenCreateResponseSchema, 429: MessageSchema },
  };
  const rateLimit = signInRateLimit(deps.cfg);
  /** Signing in again with a live session replaces it, so the older sign-in does not live on beside it. */
  const replacePrevious = async (req: FastifyRequest, reply: FastifyReply, token: string) => {
    const previous = req.cookies[CONSTANTS.sessionCookie];
    if (previous) await invalidateSession(deps.prisma, previous);
    setSessionCookie(deps, req, reply, token);
  };

  app.post(
    '/rest/token/create',
    { config: { rateLimit, destructive: true }, schema: signInSchema },
    async (req, reply) => {
      const body = req.body;
      const result = await signIn(deps, body.username, body.password);
      if (!result.ok) return reply.code(result.status).send(result.body);
      const force = result.expiryState === 'ForceUserToChangePassword';
      const timeout = deps.cfg.SESSION_TIMEOUT_SECONDS;
      // Issue 37: a person with a second factor gets a session limited to the second step, for 5 minutes.
      const methods = await secondFactorMethods(deps.prisma, result.portalUserId);
      const dueBy = methods.length ? new Date(Date.now() + SECOND_STEP_WINDOW_MS) : null;
      // Issue 37: a person who must use a second factor and has none may only enrol one.
      const enrol = !methods.length && (await enrolmentDue(deps.cfg, deps.prisma, result.portalUserId));
      const { token, xsrfToken } = await createSession(deps.prisma, result.portalUserId, timeout, force, dueBy, enrol);
      // Issue 37: signing in again with a live session (a study system's prompt=login or max_age) replaces it,
      // so the browser's older sign-in does not live on beside the new one.
      await replacePrevious(req, reply, token);
      const answer: TokenCreateResponse = {
        tokenTimeoutInSeconds: timeout,
        passwordExpiresSoon: !!result.expiryState,
        ...(result.expiryState ? { expiryState: result.expiryState } : {}),
        xsrfToken,
        ...(methods.length ? { secondFactor: { methods } } : {}),
        ...(enrol ? { secondFactorEnrolment: true as const } : {}),
      };
      return answer;
    },
  );

  // A passkey as the whole sign-in: options for a discoverable credential (no username), then its answer.
  // Rate-limited as the password's sign-in (the options route stores a challenge).
  app.post(
    '/rest/token/webauthn/options',
    {
      config: { rateLimit: passkeySignInRateLimit(deps.cfg, 'options'), destructive: true },
      schema: { body: NoBodySchema, response: { 200: PasskeyOptionsAnswerSchema, 429: MessageSchema } },
    },
    async () => ({ options: await assertionOptions(deps.prisma, relyingPartyOf(deps.cfg), 'SIGN_IN', null) }),
  );

  app.post(
    '/rest/token/webauthn',
    {
      config: { rateLimit: passkeySignInRateLimit(deps.cfg, 'verify'), destructive: true },
      schema: { ...signInSchema, body: PasskeySignInBodySchema },
    },
    async (req, reply) => {
      const result = await passkeySignIn(deps, req.body.assertion);
      if (!result.ok) return reply.code(result.status).send(result.body);
      const timeout = deps.cfg.SESSION_TIMEOUT_SECONDS;
      // The passkey's user verification is the second factor: no second step, no enrolment due.
      const { token, xsrfToken } = await createSession(deps.prisma, result.portalUserId, timeout, false, null, false, [
        result.amr,
      ]);
      await replacePrevious(req, reply, token);
      const answer: TokenCreateResponse = {
        tokenTimeoutInSeconds: timeout,
        passwordExpiresSoon: !!result.expiryState,
        ...(result.expiryState ? { expiryState: result.expiryState } : {}),
        xsrfToken,
      };
      return answer;
    },
  );

  // The second step's passkey options: the person's confirmed credentials, a challenge of this session.
  app.post(
    '/rest/secure/token/second_factor/webauthn/options',
    {
      config: { destructive: true },
      schema: { body: NoBodySchema, response: { 200: PasskeyOptionsAnswerSchema, ...SECURE_ERRORS } },
    },
    async (req) => {
      const auth = requireAuth(req);
      if (!(await secondFactorMethods(deps.prisma, auth.userId)).includes('WEBAUTHN')) throw forbidden();
      const owner = { userId: auth.userId, sessionToken: auth.sessionToken };
      return { options: await assertionOptions(deps.prisma, relyingPartyOf(deps.cfg), 'SECOND_STEP', owner) };
    },
  );

  // The sign-in's second step (issue 37), and the step-up of a session opened by the password alone (a study
  // system asking for the multi-factor level): the same codes, the same failure count and lockout.
  app.post(
    '/rest/secure/token/second_factor',
    {
      config: { destructive: true },
      schema: {
        body: SecondFactorStepBodySchema,
        // 401: the guard's 'Please sign in' ({ message }) or a refused code (000 §3's flags and message).
        response: {
          ...SECURE_ERRORS,
          200: TokenCreateResponseSchema,
          401: TokenCreateResponseSchema,
          503: TokenCreateResponseSchema,
        },
      },
    },
    async (req, reply) => {
      const auth = requireAuth(req);
      if (!auth.secondFactorPending && (await secondFactorMethods(deps.prisma, auth.userId)).length === 0) {
        throw forbidden();
      }
      let result: Awaited<ReturnType<typeof takeSecondStep>>;
      try {
        result = await takeSecondStep(deps, auth, req.body);
      } catch (err) {
        // The directory or the database did not answer within its deadline: try again, as the sign-in says.
        req.log.error({ err }, 'the second step failed');
        return reply.code(503).send({ unspecifiedFailure: true, message: MESSAGES.signIn.unspecifiedFailure });
      }
      if (!result.ok) {
        if (result.body.accountLocked) clearSessionCookie(deps, req, reply);
        return reply.code(401).send(result.body);
      }
      const answer: TokenCreateResponse = {
        tokenTimeoutInSeconds: deps.cfg.SESSION_TIMEOUT_SECONDS,
        passwordExpiresSoon: auth.passwordChangeRequired,
        ...(auth.passwordChangeRequired ? { expiryState: 'ForceUserToChangePassword' as const } : {}),
      };
      return answer;
    },
  );

  app.post(
    '/rest/secure/token/invalidate',
    {
      config: { destructive: true },
      schema: { body: NoBodySchema, response: { 200: EmptyObjectSchema, ...SECURE_ERRORS } },
    },
    async (req, reply) => {
      const auth = requireAuth(req);
      // Out of the portal is out of single sign-on: its sessions end and the systems get their logout
      // tokens. First, so a failure leaves the portal session for another try.
      await deps.prisma.$transaction((tx) => endSsoSessions(tx, auth.userId));
      await invalidateSession(deps.prisma, auth.sessionToken);
      clearSessionCookie(deps, req, reply);
      return {};
    },
  );

  // The guard has already slid the session's expiry (000 §4 Session timeout: refresh extends it).
  const refreshed = z.object({ tokenTimeoutInSeconds: z.number().int() });
  app.get('/rest/secure/token/refresh', { schema: { response: { 200: refreshed, ...SECURE_ERRORS } } }, async () => ({
    tokenTimeoutInSeconds: deps.cfg.SESSION_TIMEOUT_SECONDS,
  }));

  app.get(
    '/rest/secure/user_capabilities/granted_permissions',
    { schema: { response: { 200: PermissionListSchema, ...SECURE_ERRORS } } },
    async (req) => requireAuth(req).permissions,
  );
};

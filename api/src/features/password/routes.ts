/**
 * Password calls (000 §7), one plugin: the rules, Forgot Password, the set-initial / reset links, the
 * user's own change and password capabilities, and the user-management password calls (admin-routes.ts).
 * Every password is checked against the rules on the server (422 fieldErrors.password / newPassword); link
 * failures answer the spec's bad-link text as failureDescription (000 §8).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ChangePasswordBodySchema,
  ErrorBodySchema,
  ForgotPasswordBodySchema,
  HashParamSchema,
  MESSAGES,
  type PasswordChangeRestriction,
  PasswordChangeRestrictionSchema,
  PasswordRulesSchema,
  PasswordSetBodySchema,
} from '@portal/contract';
import { readPolicy } from '@portal/directory';
import { requireAuth } from '../../auth/guard';
import { forgotPasswordRateLimit } from '../../auth/security';
import type { Deps } from '../../deps';
import { unavailable } from '../../http/errors';
import { EmptyObjectSchema, MessageSchema, SECURE_ERRORS } from '../../http/route-schemas';
import { passwordCapabilities } from './account';
import { registerPasswordAdminRoutes } from './admin-routes';
import { changeOwn } from './change';
import type { LinkPurpose } from './links';
import { isLinkLive, requestReset, setViaLink } from './reset';
import { passwordRules } from './rules';

const MODES: Array<[string, LinkPurpose]> = [
  ['set_initial_password', 'SET_INITIAL'],
  ['reset_password', 'RESET'],
];

/** A link failure: the spec's error shape plus failureDescription (000 §3 Reset response). */
const LinkFailureSchema = ErrorBodySchema.extend({ failureDescription: z.string().optional() });

/** The path of a link check: any text; a malformed hash answers `false`, like an unknown one (000 §7). */
const LinkCheckParams = z.object({ hash: z.string() });

export const passwordRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.get('/rest/public/password_validation/rules', { schema: { response: { 200: PasswordRulesSchema } } }, async () =>
    passwordRules(await readPolicy(deps.directory)),
  );

  app.post(
    '/rest/public/forgot_password',
    {
      config: { rateLimit: forgotPasswordRateLimit(deps.cfg), destructive: true },
      schema: { body: ForgotPasswordBodySchema, response: { 200: EmptyObjectSchema, 422: ErrorBodySchema } },
    },
    async (req) => {
      // The same answer, at once, for any address: the link and the mail follow in the background.
      void requestReset(deps, req.body.emailAddress, req.log);
      return {};
    },
  );

  for (const [mode, purpose] of MODES) {
    app.get(
      `/rest/public/${mode}/:hash`,
      { schema: { params: LinkCheckParams, response: { 200: z.boolean() } } },
      async (req) => {
        const parsed = HashParamSchema.safeParse(req.params);
        return parsed.success ? isLinkLive(deps, parsed.data.hash, purpose) : false;
      },
    );
    app.post(
      `/rest/public/${mode}`,
      {
        config: { destructive: true },
        schema: { body: PasswordSetBodySchema, response: { 200: EmptyObjectSchema, 422: LinkFailureSchema } },
      },
      async (req) => {
        await setViaLink(deps, purpose, req.body);
        return {};
      },
    );
  }

  /** Any signed-in user whose password the portal manages (000 §4 After a password change). */
  app.post(
    '/rest/secure/change_password/attempt',
    {
      config: { destructive: true },
      schema: {
        body: ChangePasswordBodySchema,
        response: { 200: EmptyObjectSchema, ...SECURE_ERRORS, 422: LinkFailureSchema, 503: MessageSchema },
      },
    },
    async (req) => {
      await changeOwn(deps, requireAuth(req), req.body);
      return {};
    },
  );

  /** 000 §3 capabilities of the signed-in user: may the portal ever / now change their password. */
  for (const which of ['ever', 'now'] as const) {
    app.get(
      `/rest/secure/user_capabilities/can_change_password_${which}`,
      { schema: { response: { 200: z.boolean(), ...SECURE_ERRORS, 503: MessageSchema } } },
      async (req) => {
        const user = await deps.prisma.portalUser.findUniqueOrThrow({ where: { id: requireAuth(req).userId } });
        try {
          return (await passwordCapabilities(deps, user))[which];
        } catch {
          throw unavailable(MESSAGES.signIn.unspecifiedFailure);
        }
      },
    );
  }

  /**
   * The same 'now' answer with the time a change becomes possible inside the minimum-age restriction (issue 9),
   * so Change Password can say from when; the spec's boolean calls above stay as they are.
   */
  app.get(
    '/rest/secure/user_capabilities/password_change_restriction',
    { schema: { response: { 200: PasswordChangeRestrictionSchema, ...SECURE_ERRORS, 503: MessageSchema } } },
    async (req): Promise<PasswordChangeRestriction> => {
      const user = await deps.prisma.portalUser.findUniqueOrThrow({ where: { id: requireAuth(req).userId } });
      try {
        const caps = await passwordCapabilities(deps, user);
        return {
          canChangeNow: caps.now,
          changeAllowedFrom: caps.ever && caps.restrictedUntil ? caps.restrictedUntil.toISOString() : null,
        };
      } catch {
        throw unavailable(MESSAGES.signIn.unspecifiedFailure);
      }
    },
  );

  registerPasswordAdminRoutes(app, deps);
};

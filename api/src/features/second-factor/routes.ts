/**
 * The second-factor calls (issue 37; docs/decisions.md "Second factors"), beside the spec's (000 §7 has none):
 * the signed-in person's own, under /rest/secure/second_factor (any signed-in person; enrolment.ts, and
 * passkeys.ts for passkeys and security keys), and the
 * staff's under /rest/secure/user_management/users/{id}/second_factor (READ_USERS to see, ADMIN to reset;
 * admin-reset.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AddPasskeyBodySchema,
  BeginPasskeyBodySchema,
  BeginTotpBodySchema,
  ConfirmFactorLinkBodySchema,
  ConfirmTotpAnswerSchema,
  ConfirmTotpBodySchema,
  PasskeyOptionsAnswerSchema,
  PasswordAgainBodySchema,
  PortalUserIdParamSchema,
  RecoveryCodesSchema,
  SecondFactorOverviewSchema,
  TotpEnrolmentSchema,
  UserSecondFactorsSchema,
} from '@portal/contract';
import { requireAuth } from '../../auth/guard';
import type { Deps } from '../../deps';
import { notFound } from '../../http/errors';
import { EmptyObjectSchema, MessageSchema, NoBodySchema, SECURE_ERRORS } from '../../http/route-schemas';
import { resetSecondFactors, userSecondFactors } from './admin-reset';
import { beginEnrolment, confirmEnrolment, confirmLink, overview, removeFactor, renewRecoveryCodes } from './enrolment';
import { addPasskey, beginPasskey } from './passkeys';

const FACTOR_NOT_FOUND = 'No such sign-in method.';
const USER_NOT_FOUND = 'Unable to load the specified user.';
const answers = (ok: z.ZodType) => ({ 200: ok, 404: MessageSchema, 503: MessageSchema, ...SECURE_ERRORS });
const FactorIdParamSchema = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

export const secondFactorRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.get('/rest/secure/second_factor', { schema: { response: answers(SecondFactorOverviewSchema) } }, async (req) =>
    overview(deps, requireAuth(req)),
  );

  app.post(
    '/rest/secure/second_factor/totp',
    { config: { destructive: true }, schema: { body: BeginTotpBodySchema, response: answers(TotpEnrolmentSchema) } },
    async (req) => beginEnrolment(deps, requireAuth(req), req.body),
  );

  app.post(
    '/rest/secure/second_factor/totp/:id/confirm',
    {
      config: { destructive: true },
      schema: { params: FactorIdParamSchema, body: ConfirmTotpBodySchema, response: answers(ConfirmTotpAnswerSchema) },
    },
    async (req) => confirmEnrolment(deps, requireAuth(req), req.params.id, req.body.code),
  );

  // A passkey or security key: the options (after the password), then the browser's new credential.
  app.post(
    '/rest/secure/second_factor/webauthn/options',
    {
      config: { destructive: true },
      schema: { body: BeginPasskeyBodySchema, response: answers(PasskeyOptionsAnswerSchema) },
    },
    async (req) => ({ options: await beginPasskey(deps, requireAuth(req), req.body) }),
  );

  app.post(
    '/rest/secure/second_factor/webauthn',
    {
      config: { destructive: true },
      schema: { body: AddPasskeyBodySchema, response: answers(ConfirmTotpAnswerSchema) },
    },
    async (req) => addPasskey(deps, requireAuth(req), req.body.credential),
  );

  app.post(
    '/rest/secure/second_factor/confirm_email',
    {
      config: { destructive: true },
      schema: { body: ConfirmFactorLinkBodySchema, response: answers(RecoveryCodesSchema) },
    },
    async (req) => ({ recoveryCodes: await confirmLink(deps, requireAuth(req), req.body.token) }),
  );

  app.post(
    '/rest/secure/second_factor/recovery_codes',
    {
      config: { destructive: true },
      schema: { body: PasswordAgainBodySchema, response: answers(RecoveryCodesSchema) },
    },
    async (req) => ({ recoveryCodes: await renewRecoveryCodes(deps, requireAuth(req), req.body.password) }),
  );

  // The password travels in the body (never the URL), so removal is a POST.
  app.post(
    '/rest/secure/second_factor/:id/remove',
    {
      config: { destructive: true },
      schema: { params: FactorIdParamSchema, body: PasswordAgainBodySchema, response: answers(EmptyObjectSchema) },
    },
    async (req) => {
      if (!(await removeFactor(deps, requireAuth(req), req.params.id, req.body.password))) {
        throw notFound(FACTOR_NOT_FOUND);
      }
      return {};
    },
  );

  const userOf = async (id: number) => {
    const user = await deps.prisma.portalUser.findUnique({ where: { id } });
    if (!user) throw notFound(USER_NOT_FOUND);
    return user;
  };

  app.get(
    '/rest/secure/user_management/users/:id/second_factor',
    {
      config: { permission: 'READ_USERS' },
      schema: { params: PortalUserIdParamSchema, response: answers(UserSecondFactorsSchema) },
    },
    async (req) => userSecondFactors(deps, (await userOf(req.params.id)).id),
  );

  app.post(
    '/rest/secure/user_management/users/:id/second_factor/reset',
    {
      config: { permission: 'ADMIN', destructive: true },
      schema: {
        params: PortalUserIdParamSchema,
        body: NoBodySchema,
        response: answers(z.object({ removed: z.number().int() })),
      },
    },
    async (req) => ({ removed: await resetSecondFactors(deps, requireAuth(req), await userOf(req.params.id)) }),
  );
};

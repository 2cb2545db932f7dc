/**
 * User-management password calls (000 §7 User management; permissions per 000 §6, docs/decisions.md):
 * the admin-path restriction calls need ADMIN, the capability reads READ_USERS, the resend WRITE_USERS.
 */
import { z } from 'zod';
import { AUTH_MESSAGES, PortalUserIdParamSchema, PortalUserUuidParamSchema } from '@portal/contract';
import type { PortalUser } from '@portal/db';
import { requireAuth } from '../../auth/guard';
import type { Deps } from '../../deps';
import { HttpError, notFound, unavailable } from '../../http/errors';
import { EmptyObjectSchema, MessageSchema, NoBodySchema, SECURE_ERRORS, type ZodApp } from '../../http/route-schemas';
import { clearChangeTimeRestriction, hasSetInitialPassword, passwordCapabilities, personOf } from './account';
import { auditPassword } from './audit';
import { resendInitial } from './reset';

const USER_NOT_FOUND = 'Unable to load the specified user.';

/** The answers of a user-management password call: `ok`, 404 unknown user, 503 directory failure. */
const answers = (ok: z.ZodType) => ({ 200: ok, 404: MessageSchema, 503: MessageSchema, ...SECURE_ERRORS });

export function registerPasswordAdminRoutes(app: ZodApp, deps: Deps): void {
  const found = (user: PortalUser | null): PortalUser => {
    if (!user) throw notFound(USER_NOT_FOUND);
    return user;
  };
  const userById = async (id: number) => found(await deps.prisma.portalUser.findUnique({ where: { id } }));
  const userByUuid = async (uuid: string) => found(await deps.prisma.portalUser.findUnique({ where: { uuid } }));
  /** Directory failures answer 503 with the call's 000 §8 text. */
  const orUnavailable = async <T>(text: string, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof HttpError) throw err;
      throw unavailable(text);
    }
  };
  const byUuid = (ok: z.ZodType) => ({ params: PortalUserUuidParamSchema, response: answers(ok) });
  const byId = (ok: z.ZodType) => ({ params: PortalUserIdParamSchema, response: answers(ok) });

  app.get(
    '/rest/secure/admin/user_management/isUserCurrentlyRestrictedByAllowChangeTime/:uuid',
    { config: { permission: 'ADMIN' }, schema: byUuid(z.boolean()) },
    async (req) => {
      const user = await userByUuid(req.params.uuid);
      return orUnavailable(
        AUTH_MESSAGES.restrictionUnknown,
        async () => (await passwordCapabilities(deps, user)).restricted,
      );
    },
  );

  // Beside the spec's boolean (kept as it is): until when the restriction stands, for the user detail's
  // password section (issue 11: "show the restriction with its date"); null when none stands.
  app.get(
    '/rest/secure/admin/user_management/passwordChangeRestriction/:uuid',
    {
      config: { permission: 'ADMIN' },
      schema: byUuid(z.object({ restricted: z.boolean(), changeAllowedFrom: z.iso.datetime().nullable() })),
    },
    async (req) => {
      const user = await userByUuid(req.params.uuid);
      return orUnavailable(AUTH_MESSAGES.restrictionUnknown, async () => {
        const caps = await passwordCapabilities(deps, user);
        return { restricted: caps.restricted, changeAllowedFrom: caps.restrictedUntil?.toISOString() ?? null };
      });
    },
  );

  app.post(
    '/rest/secure/admin/user_management/clearUsersPasswordAllowChangeTime/:uuid',
    {
      config: { permission: 'ADMIN', destructive: true },
      schema: { ...byUuid(EmptyObjectSchema), body: NoBodySchema },
    },
    async (req) => {
      const auth = requireAuth(req);
      const user = await userByUuid(req.params.uuid);
      return orUnavailable(AUTH_MESSAGES.restrictionClearFailed, async () => {
        const person = await personOf(deps, user);
        if (!person) throw notFound(USER_NOT_FOUND);
        if (await clearChangeTimeRestriction(deps, person)) {
          await auditPassword(deps, auth, user.id, 'PASSWORD_CHANGE_RESTRICTION_CLEARED');
        }
        return {};
      });
    },
  );

  app.get(
    '/rest/secure/user_management/can_change_password_ever/:id',
    { config: { permission: 'READ_USERS' }, schema: byId(z.boolean()) },
    async (req) => {
      const user = await userById(req.params.id);
      return orUnavailable(
        AUTH_MESSAGES.resend.undetermined,
        async () => (await passwordCapabilities(deps, user)).ever,
      );
    },
  );

  app.get(
    '/rest/secure/user_management/hasSetInitialPassword/:id',
    { config: { permission: 'READ_USERS' }, schema: byId(z.boolean()) },
    async (req) => {
      const user = await userById(req.params.id);
      return orUnavailable(AUTH_MESSAGES.resend.undetermined, () => hasSetInitialPassword(deps, user));
    },
  );

  app.post(
    '/rest/secure/set_initial_password/resend/:id',
    {
      config: { permission: 'WRITE_USERS', destructive: true },
      schema: {
        ...byId(MessageSchema),
        body: NoBodySchema,
        response: { ...answers(MessageSchema), 409: MessageSchema },
      },
    },
    async (req, reply) => {
      const auth = requireAuth(req);
      const user = await userById(req.params.id);
      const outcome = await orUnavailable(AUTH_MESSAGES.resend.unexpected, () => resendInitial(deps, auth, user));
      if (outcome === 'notPermitted') return reply.code(409).send({ message: AUTH_MESSAGES.resend.notPermitted });
      if (outcome === 'alreadySet') return reply.code(409).send({ message: AUTH_MESSAGES.resend.alreadySet });
      return { message: AUTH_MESSAGES.resend.sent };
    },
  );
}

/**
 * User-management password calls (000 §7 User management; permissions per 000 §6, docs/decisions.md):
 * the admin-path restriction calls need ADMIN, the capability reads READ_USERS, the resend WRITE_USERS.
 */
import type { FastifyInstance } from 'fastify';
import { AUTH_MESSAGES, PortalUserIdParamSchema, PortalUserUuidParamSchema } from '@portal/contract';
import { requireAuth } from '../auth/guard';
import type { Deps } from '../deps';
import { HttpError, notFound, unavailable } from '../http/errors';
import { parseInput } from '../http/validate';
import {
  clearChangeTimeRestriction,
  hasSetInitialPassword,
  passwordCapabilities,
  personOf,
} from '../services/password-account';
import { auditPassword } from '../services/password-audit';
import { resendInitial } from '../services/password-reset';

const USER_NOT_FOUND = 'Unable to load the specified user.';

export function registerPasswordAdminRoutes(app: FastifyInstance, deps: Deps): void {
  const userById = async (params: unknown) => {
    const { id } = parseInput(PortalUserIdParamSchema, params);
    const user = await deps.prisma.portalUser.findUnique({ where: { id } });
    if (!user) throw notFound(USER_NOT_FOUND);
    return user;
  };
  const userByUuid = async (params: unknown) => {
    const { uuid } = parseInput(PortalUserUuidParamSchema, params);
    const user = await deps.prisma.portalUser.findUnique({ where: { uuid } });
    if (!user) throw notFound(USER_NOT_FOUND);
    return user;
  };
  /** Directory failures answer 503 with the call's 000 §8 text. */
  const orUnavailable = async <T>(text: string, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof HttpError) throw err;
      throw unavailable(text);
    }
  };

  app.get('/admin/user_management/isUserCurrentlyRestrictedByAllowChangeTime/:uuid', async (req) => {
    requireAuth(req, 'ADMIN');
    const user = await userByUuid(req.params);
    return orUnavailable(
      AUTH_MESSAGES.restrictionUnknown,
      async () => (await passwordCapabilities(deps, user)).restricted,
    );
  });

  app.post('/admin/user_management/clearUsersPasswordAllowChangeTime/:uuid', async (req) => {
    const auth = requireAuth(req, 'ADMIN');
    const user = await userByUuid(req.params);
    return orUnavailable(AUTH_MESSAGES.restrictionClearFailed, async () => {
      const person = await personOf(deps, user);
      if (!person) throw notFound(USER_NOT_FOUND);
      if (await clearChangeTimeRestriction(deps, person)) {
        await auditPassword(deps, auth, user.id, 'PASSWORD_CHANGE_RESTRICTION_CLEARED');
      }
      return {};
    });
  });

  app.get('/user_management/can_change_password_ever/:id', async (req) => {
    requireAuth(req, 'READ_USERS');
    const user = await userById(req.params);
    return orUnavailable(AUTH_MESSAGES.resend.undetermined, async () => (await passwordCapabilities(deps, user)).ever);
  });

  app.get('/user_management/hasSetInitialPassword/:id', async (req) => {
    requireAuth(req, 'READ_USERS');
    const user = await userById(req.params);
    return orUnavailable(AUTH_MESSAGES.resend.undetermined, () => hasSetInitialPassword(deps, user));
  });

  app.post('/set_initial_password/resend/:id', async (req, reply) => {
    const auth = requireAuth(req, 'WRITE_USERS');
    const user = await userById(req.params);
    const outcome = await orUnavailable(AUTH_MESSAGES.resend.unexpected, () => resendInitial(deps, auth, user));
    if (outcome === 'notPermitted') return reply.code(409).send({ message: AUTH_MESSAGES.resend.notPermitted });
    if (outcome === 'alreadySet') return reply.code(409).send({ message: AUTH_MESSAGES.resend.alreadySet });
    return { message: AUTH_MESSAGES.resend.sent };
  });
}

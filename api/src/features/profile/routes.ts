/** The signed-in user's profile and access records (000 §7 user_profile, user_access/user). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Profile, ProfileSchema, UserAccessSchema } from '@portal/contract';
import { requireAuth } from '../../auth/guard';
import type { Deps } from '../../deps';
import { notFound } from '../../http/errors';
import { MessageSchema, SECURE_ERRORS } from '../../http/route-schemas';
import { proxyCapability } from '../../shared/proxy-capability';
import { portalRoleView, userAccessView } from '../../shared/views';

/** Any signed-in user reads their own profile and access records (no permission beyond the session). */
export const profileRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const { prisma } = deps;

  const profile = { response: { 200: ProfileSchema, 404: MessageSchema, ...SECURE_ERRORS } };
  app.get('/rest/secure/user_profile', { schema: profile }, async (req): Promise<Profile> => {
    const actor = requireAuth(req);
    const user = await prisma.portalUser.findUnique({
      where: { id: actor.userId },
      include: {
        portalRoles: { include: { role: true } },
        userAccesses: { where: { inactive: false }, orderBy: { roleName: 'asc' } },
      },
    });
    if (!user) throw notFound("Problem loading user's access.");
    const roles = user.portalRoles.map((r) => r.role).filter((r) => !r.inactive);
    return {
      portalUserId: user.id,
      uuid: user.uuid,
      username: user.username,
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      organizationName: user.organizationName,
      jobTitle: user.jobTitle,
      phoneNumber: user.phoneNumber,
      phoneExtension: user.phoneExtension,
      accountType: user.accountType,
      roles: roles.map(portalRoleView),
      userAccesses: user.userAccesses.map(userAccessView),
      canSubmitProxyAccessChangeRequests: proxyCapability(
        roles.map((r) => r.description),
        user.userAccesses.map((a) => a.roleName),
      ),
    };
  });

  const access = { response: { 200: z.object({ content: z.array(UserAccessSchema) }), ...SECURE_ERRORS } };
  app.get('/rest/secure/user_access/user', { schema: access }, async (req) => {
    const actor = requireAuth(req);
    const rows = await prisma.userAccess.findMany({
      where: { portalUserId: actor.userId, inactive: false },
      orderBy: { roleName: 'asc' },
    });
    return { content: rows.map(userAccessView) };
  });
};

/** The signed-in user's profile and access records (000 §7 user_profile, user_access/user). */
import type { FastifyInstance } from 'fastify';
import type { Profile } from '@portal/contract';
import { requireAuth } from '../auth/guard';
import type { Deps } from '../deps';
import { notFound } from '../http/errors';
import { proxyCapability } from '../services/proxy-capability';
import { portalRoleView, userAccessView } from '../services/views';

export function registerProfileRoutes(app: FastifyInstance, deps: Deps): void {
  const { prisma } = deps;

  app.get('/user_profile', async (req): Promise<Profile> => {
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
      accountType: user.accountType,
      roles: roles.map(portalRoleView),
      userAccesses: user.userAccesses.map(userAccessView),
      canSubmitProxyAccessChangeRequests: proxyCapability(
        roles.map((r) => r.description),
        user.userAccesses.map((a) => a.roleName),
      ),
    };
  });

  app.get('/user_access/user', async (req) => {
    const actor = requireAuth(req);
    const rows = await prisma.userAccess.findMany({
      where: { portalUserId: actor.userId, inactive: false },
      orderBy: { roleName: 'asc' },
    });
    return { content: rows.map(userAccessView) };
  });
}

/**
 * The signed-in user's profile and access records (000 §7 user_profile, user_access/user) and the save of
 * their Details fields (user_profile_mod, details-update.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Profile, ProfileSchema, UserAccessSchema } from '@portal/contract';
import { requireAuth } from '../../auth/guard';
import type { Deps } from '../../deps';
import { MessageSchema, SECURE_ERRORS } from '../../http/route-schemas';
import { proxyRulesOf } from '../../shared/proxy-capability';
import { userAccessViews } from '../../shared/views';
import { profileDetailsRoutes } from './details-update';
import { loadProfile } from './profile-view';

/** Any signed-in user reads their own profile and access records (no permission beyond the session). */
export const profileRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const { prisma } = deps;
  await app.register(profileDetailsRoutes, { deps });

  const profile = { response: { 200: ProfileSchema, 404: MessageSchema, ...SECURE_ERRORS } };
  app.get('/rest/secure/user_profile', { schema: profile }, async (req): Promise<Profile> =>
    loadProfile(prisma, proxyRulesOf(deps.cfg), requireAuth(req).userId),
  );

  const access = { response: { 200: z.object({ content: z.array(UserAccessSchema) }), ...SECURE_ERRORS } };
  app.get('/rest/secure/user_access/user', { schema: access }, async (req) => {
    const actor = requireAuth(req);
    const rows = await prisma.userAccess.findMany({
      where: { portalUserId: actor.userId, inactive: false },
      orderBy: { roleName: 'asc' },
    });
    return { content: await userAccessViews(prisma, rows) };
  });
};

/**
 * 'My applications' (issue 22 Launch), one feature plugin:
 * - GET /rest/secure/my_applications (any signed-in USER, as the dashboard's own data): the systems the
 *   signed-in user holds through their active access records that have single sign-on with an initiate-login
 *   URI, each with the URL that starts a third-party initiated login (OpenID Connect Core 1.0 §4) there.
 */
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MyApplicationSchema, type MyApplication } from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import { requireAuth } from '../../auth/guard';
import type { ApiConfig } from '../../config';
import type { Deps } from '../../deps';
import { SECURE_ERRORS } from '../../http/route-schemas';

/** The provider's issuer (as the oidc feature's): OIDC_ISSUER when configured, else the portal's own `/oidc`. */
export function providerIssuer(cfg: ApiConfig): string {
  return cfg.OIDC_ISSUER ?? `${cfg.PORTAL_URL.replace(/\/+$/, '')}/oidc`;
}

/**
 * The initiate-login URI with `iss` set to the issuer (target_link_uri omitted: the system chooses where to
 * land); null when the stored URI is not an absolute URL.
 */
export function launchUrl(initiateLoginUri: string, issuer: string): string | null {
  let url: URL;
  try {
    url = new URL(initiateLoginUri);
  } catch {
    return null;
  }
  url.searchParams.set('iss', issuer);
  return url.toString();
}

/**
 * The active systems `userId` holds through active access records that have an SSO client with an
 * initiate-login URI, ordered by the systems' sort, then name.
 */
export async function myApplications(prisma: PrismaClient, userId: number, issuer: string): Promise<MyApplication[]> {
  const records = await prisma.userAccess.findMany({
    where: { portalUserId: userId, inactive: false },
    select: { systemAccessIds: true },
  });
  const held = [...new Set(records.flatMap((r) => r.systemAccessIds))];
  if (!held.length) return [];
  const systems = await prisma.systemAccess.findMany({
    where: { id: { in: held }, inactive: false, ssoClient: { is: { initiateLoginUri: { not: null } } } },
    select: { id: true, systemName: true, ssoClient: { select: { initiateLoginUri: true } } },
    orderBy: [{ sort: 'asc' }, { systemName: 'asc' }, { id: 'asc' }],
  });
  return systems.flatMap((s) => {
    const url = s.ssoClient?.initiateLoginUri ? launchUrl(s.ssoClient.initiateLoginUri, issuer) : null;
    return url ? [{ systemId: s.id, systemName: s.systemName, launchUrl: url }] : [];
  });
}

export const myApplicationsRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const issuer = providerIssuer(deps.cfg);
  app.get(
    '/rest/secure/my_applications',
    {
      config: { permission: 'USER' },
      schema: { response: { 200: z.array(MyApplicationSchema), ...SECURE_ERRORS } },
    },
    async (req): Promise<MyApplication[]> => myApplications(deps.prisma, requireAuth(req).userId, issuer),
  );
};

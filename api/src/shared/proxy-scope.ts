/**
 * What a proxy may reach (000 §6, 001 §6; REQUEST-LIFECYCLE "Proxy bulk batch"): the proxy right as built
 * (proxy-capability.ts: a qualifying study role or portal role; the special portal role gives forAllUsers)
 * and, without forAllUsers, only users of the proxy's own sites. The proxy's sites are the AOs (siteCodes)
 * and LAOs (laoIds) of their current access records; an LAO brings its AOs (active LAO-site-study
 * relations) and its own AO duplicate (000 §3). A user is reachable when one of their current records names
 * one of those AOs or LAOs. Used by the batch, the single-user POST for another user (001 §9) and the
 * proxy's user list.
 */
import type { PrismaClient } from '@portal/db';
import { type ProxyRules, proxyCapability } from './proxy-capability';

export interface ProxyScope {
  canSubmit: boolean;
  forAllUsers: boolean;
  /** The AO codes (with the AOs of the proxy's LAOs) and LAO codes the proxy reaches. */
  aoCodes: Set<string>;
  laoCodes: Set<string>;
}

/** The proxy right under `rules` and own sites of `userId` (active portal roles, current access records). */
export async function loadProxyScope(prisma: PrismaClient, rules: ProxyRules, userId: number): Promise<ProxyScope> {
  const user = await prisma.portalUser.findUnique({
    where: { id: userId },
    include: { portalRoles: { include: { role: true } }, userAccesses: { where: { inactive: false } } },
  });
  if (!user) return { canSubmit: false, forAllUsers: false, aoCodes: new Set(), laoCodes: new Set() };
  const roles = user.portalRoles.map((r) => r.role).filter((r) => !r.inactive);
  const capability = proxyCapability(
    rules,
    roles.map((r) => r.description),
    user.userAccesses.map((a) => a.roleName),
  );
  const laoCodes = [...new Set(user.userAccesses.flatMap((a) => a.laoIds))];
  const laoSites = await prisma.siteRelation.findMany({
    where: { laoCode: { in: laoCodes }, active: true },
    select: { siteCode: true },
    distinct: ['siteCode'],
  });
  return {
    ...capability,
    aoCodes: new Set([
      ...user.userAccesses.flatMap((a) => a.siteCodes),
      ...laoCodes,
      ...laoSites.map((r) => r.siteCode),
    ]),
    laoCodes: new Set(laoCodes),
  };
}

/**
 * The ids among `userIds` the proxy may not reach (empty with forAllUsers): users with no current access
 * record at one of the proxy's sites, and ids no user has.
 */
export async function unreachableUsers(
  prisma: PrismaClient,
  scope: ProxyScope,
  userIds: readonly number[],
): Promise<number[]> {
  if (scope.forAllUsers) return [];
  const reachable = await prisma.userAccess.findMany({
    where: {
      portalUserId: { in: [...userIds] },
      inactive: false,
      OR: [{ siteCodes: { hasSome: [...scope.aoCodes] } }, { laoIds: { hasSome: [...scope.laoCodes] } }],
    },
    select: { portalUserId: true },
    distinct: ['portalUserId'],
  });
  const ok = new Set(reachable.map((r) => r.portalUserId));
  return userIds.filter((id) => !ok.has(id));
}

/**
 * A person's provisioned accounts (issue 41 "The user detail's Access tab shows, per provisioned system, the
 * account's state (in sync, pending, error with the target's message, last change)"): one entry per system that
 * has a provisioning connection and an account state for the person, in the systems' order (sort, name).
 * Systems whose connection was removed are left out: nothing is provisioned there any more.
 */
import { PROVISIONING_STATES, type ProvisioningAccount, USER_DETAIL_MESSAGES } from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import { notFound } from '../../http/errors';

/** GET /rest/secure/user_management/user/{id}/provisioning. @throws 404 'Problem loading user.'. */
export async function userProvisioning(prisma: PrismaClient, portalUserId: number): Promise<ProvisioningAccount[]> {
  const [person, accounts] = await Promise.all([
    prisma.portalUser.findUnique({ where: { id: portalUserId }, select: { id: true } }),
    prisma.provisioningAccount.findMany({ where: { portalUserId } }),
  ]);
  if (!person) throw notFound(USER_DETAIL_MESSAGES.loadUserFailed);
  if (!accounts.length) return [];
  const systems = await prisma.systemAccess.findMany({
    where: { id: { in: accounts.map((a) => a.systemAccessId) }, provisioning: { isNot: null } },
    select: { id: true, systemName: true },
    orderBy: [{ sort: 'asc' }, { systemName: 'asc' }, { id: 'asc' }],
  });
  const byId = new Map(accounts.map((a) => [a.systemAccessId, a]));
  return systems.map((s) => {
    const a = byId.get(s.id)!;
    return {
      systemAccessId: s.id,
      systemName: s.systemName,
      // An unknown stored state reads as PENDING: the portal does not know the target matches.
      state: PROVISIONING_STATES.find((st) => st === a.state) ?? 'PENDING',
      active: a.active,
      lastError: a.lastError,
      changedAt: a.changedAt.toISOString(),
      syncedAt: a.syncedAt?.toISOString() ?? null,
    };
  });
}

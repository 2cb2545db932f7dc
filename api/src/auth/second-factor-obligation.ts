/**
 * Who must use a second factor (issue 37; docs/decisions.md "Second factors"): the holders of any permission
 * of SECOND_FACTOR_REQUIRED_PERMISSIONS (000 §6 names; default ADMIN, WRITE_USERS and READ_USERS, as staff
 * reach everyone's data). Such a person without an active factor is sent to enrol before anything else.
 */
import { type Permission, grantedPermissions } from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import type { ApiConfig } from '../config';

/** True when `permissions` hold one whose holders must use a second factor. */
export const secondFactorRequired = (
  cfg: Pick<ApiConfig, 'SECOND_FACTOR_REQUIRED_PERMISSIONS'>,
  permissions: readonly Permission[],
): boolean => permissions.some((p) => cfg.SECOND_FACTOR_REQUIRED_PERMISSIONS.includes(p));

/**
 * True when `portalUserId` must enrol a second factor at sign-in: they hold a permission whose holders must
 * (through an active portal role) and no factor signs them in yet.
 */
export async function enrolmentDue(
  cfg: Pick<ApiConfig, 'SECOND_FACTOR_REQUIRED_PERMISSIONS'>,
  prisma: PrismaClient,
  portalUserId: number,
): Promise<boolean> {
  if (cfg.SECOND_FACTOR_REQUIRED_PERMISSIONS.length === 0) return false;
  const roles = await prisma.portalUserRole.findMany({
    where: { portalUserId, role: { inactive: false } },
    select: { role: { select: { permissions: true } } },
  });
  const permissions = grantedPermissions(roles.flatMap((r) => r.role.permissions));
  if (!secondFactorRequired(cfg, permissions)) return false;
  return (await prisma.secondFactor.count({ where: { portalUserId, confirmedAt: { not: null } } })) === 0;
}

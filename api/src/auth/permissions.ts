/** Permission look-up: a user gets every permission of their active portal roles, expanded (000 §6). */
import type { Permission } from '@portal/contract';
import { grantedPermissions } from '@portal/contract';
import type { PrismaClient } from '@portal/db';

export async function permissionsOf(prisma: PrismaClient, portalUserId: number): Promise<Permission[]> {
  const roles = await prisma.portalUserRole.findMany({
    where: { portalUserId, role: { inactive: false } },
    include: { role: true },
  });
  return grantedPermissions(roles.flatMap((r) => r.role.permissions));
}

/**
 * Portal roles (001 §3 Portal role, §4, §5, §7 Portal roles): list, read, create (sort 0), update (304 when
 * nothing changed) and activate/deactivate ('Delete' is a deactivate). Each change and its audit row are
 * written in one transaction. A change that would leave no active user with ADMIN is refused, so the
 * configuration can never lock every administrator out.
 */
import type { PortalRole, PortalRoleCreateBody, PortalRoleUpdateBody, ToggleAction } from '@portal/contract';
import { CONFIG_MESSAGES, PERMISSIONS, isBasicPortalRole } from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import { type AuditActor, recordAudit } from '../../shared/audit-log';
import { TX_OPTIONS, type Tx, isUniqueViolation, lockConfig, sameSnapshot } from './common';
import { notFound, notModified, unprocessable } from '../../http/errors';
import { portalRoleView } from '../../shared/views';

const ENTITY = 'PortalRole';
export const LAST_ADMIN = 'This change would leave no active user with the ADMIN permission.';

/** 001 §7 getAll: every role, active or not, sorted by sort then name; basic roles only with includeBasic. */
export async function listPortalRoles(prisma: PrismaClient, includeBasic: boolean): Promise<PortalRole[]> {
  const rows = await prisma.portalRole.findMany({ orderBy: [{ sort: 'asc' }, { description: 'asc' }] });
  return rows.filter((r) => includeBasic || !isBasicPortalRole(r.permissions)).map(portalRoleView);
}

/** @throws HttpError 404 'Problem loading portal role.' */
export async function getPortalRole(prisma: PrismaClient | Tx, id: number): Promise<PortalRole> {
  const row = await prisma.portalRole.findUnique({ where: { id } });
  if (!row) throw notFound(CONFIG_MESSAGES.portalRoles.load);
  return portalRoleView(row);
}

async function assertNameFree(tx: Tx, description: string, exceptId?: number): Promise<void> {
  const clash = await tx.portalRole.findFirst({
    where: {
      description: { equals: description, mode: 'insensitive' },
      ...(exceptId ? { NOT: { id: exceptId } } : {}),
    },
  });
  if (clash) throw unprocessable({ description: ['unique'] });
}

/** 000 §6: somebody must keep all functionality. */
async function assertAdminRemains(tx: Tx): Promise<void> {
  const admins = await tx.portalUser.count({
    where: { inactive: false, portalRoles: { some: { role: { inactive: false, permissions: { has: 'ADMIN' } } } } },
  });
  if (admins === 0) throw unprocessable({}, [LAST_ADMIN]);
}

/** POST .../portal_roles/create. @throws 422 (`description` unique or invalid, `permissions`). */
export async function createPortalRole(
  prisma: PrismaClient,
  actor: AuditActor,
  body: PortalRoleCreateBody,
): Promise<PortalRole> {
  try {
    return await prisma.$transaction(async (tx) => {
      await lockConfig(tx, 'portalRoles');
      await assertNameFree(tx, body.description);
      const row = await tx.portalRole.create({
        data: { description: body.description, permissions: body.permissions, sort: 0, inactive: false },
      });
      const after = portalRoleView(row);
      await recordAudit(tx, actor, { entityType: ENTITY, entityId: row.id, action: 'CREATED', after });
      return after;
    }, TX_OPTIONS);
  } catch (err) {
    if (isUniqueViolation(err)) throw unprocessable({ description: ['unique'] });
    throw err;
  }
}

/** PUT .../portal_roles/update: name, permissions and (optionally) sort. @throws 304, 404, 422. */
export async function updatePortalRole(
  prisma: PrismaClient,
  actor: AuditActor,
  body: PortalRoleUpdateBody,
): Promise<PortalRole> {
  try {
    return await prisma.$transaction(async (tx) => {
      await lockConfig(tx, 'portalRoles');
      const before = await getPortalRole(tx, body.id);
      const next = { description: body.description, permissions: body.permissions, sort: body.sort ?? before.sort };
      const held = PERMISSIONS.filter((p) => before.permissions.includes(p));
      if (sameSnapshot({ ...before, ...next }, { ...before, permissions: held })) throw notModified();
      await assertNameFree(tx, body.description, body.id);
      const row = await tx.portalRole.update({ where: { id: body.id }, data: next });
      if (!before.inactive) await assertAdminRemains(tx);
      const after = portalRoleView(row);
      await recordAudit(tx, actor, { entityType: ENTITY, entityId: row.id, action: 'UPDATED', before, after });
      return after;
    }, TX_OPTIONS);
  } catch (err) {
    if (isUniqueViolation(err)) throw unprocessable({ description: ['unique'] });
    throw err;
  }
}

/** PUT .../portal_roles/{activate|deactivate}/{id}. @throws 304 when already so, 404, 422 (last admin). */
export async function togglePortalRole(
  prisma: PrismaClient,
  actor: AuditActor,
  id: number,
  action: ToggleAction,
): Promise<PortalRole> {
  return prisma.$transaction(async (tx) => {
    await lockConfig(tx, 'portalRoles');
    const before = await getPortalRole(tx, id);
    const inactive = action === 'deactivate';
    if (before.inactive === inactive) throw notModified();
    const row = await tx.portalRole.update({ where: { id }, data: { inactive } });
    if (inactive) await assertAdminRemains(tx);
    const after = portalRoleView(row);
    const audit = inactive ? 'DEACTIVATED' : 'ACTIVATED';
    await recordAudit(tx, actor, { entityType: ENTITY, entityId: id, action: audit, before, after });
    return after;
  }, TX_OPTIONS);
}

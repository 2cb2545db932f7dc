/**
 * Systems (001 §3 System, §4, §5, §7 Systems): list, read, create, update (304 when nothing changed) and
 * activate/deactivate (304 when already so). Rules held here: name 128 and unique among active systems
 * ('There is already an active system with this name.', case-insensitive, also on activation), description
 * 1024; the fixed 'Portal Gateway' keeps its name and stays active; no deactivation while active study roles
 * have the system as a default, or outstanding requests or pending users reference it.
 */
import type { SystemBody, SystemDetail, ToggleAction } from '@portal/contract';
import { CONFIG_MESSAGES } from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import { notFound, notModified, unprocessable } from '../../http/errors';
import { type AuditActor, recordAudit } from '../../shared/audit-log';
import { TX_OPTIONS, type Tx, lockConfig, sameSnapshot } from './common';
import { outstandingRequestsOfSystem, pendingUsersOfSystem, studyRolesOfSystem } from './in-use';
import { CONFIGURED_LISTS, referenceCacheFor } from '../../shared/reference-cache';
import { systemDetailView } from './views';

const ENTITY = 'SystemAccess';
export const FIXED_RENAME = 'The name of the fixed system cannot be changed.';
export const FIXED_DEACTIVATE = 'The fixed system is always selected and cannot be deactivated.';
export const studyRolesText = (names: string[]) =>
  `This system is a default application of ${names.length} active study-role(s): ${names.join(', ')}.`;
export const outstandingText = (n: number) =>
  `This system is referenced by ${n} outstanding user-access modification request(s).`;
export const pendingText = (n: number) => `This system is referenced by ${n} pending user registration(s).`;

/** 001 §7: every system, active or not, sorted by sort then systemName. */
export async function listSystems(prisma: PrismaClient): Promise<SystemDetail[]> {
  const rows = await prisma.systemAccess.findMany({ orderBy: [{ sort: 'asc' }, { systemName: 'asc' }] });
  return rows.map(systemDetailView);
}

/** @throws HttpError 404 'Problem loading system.' */
export async function getSystem(db: PrismaClient | Tx, id: number): Promise<SystemDetail> {
  const row = await db.systemAccess.findUnique({ where: { id } });
  if (!row) throw notFound(CONFIG_MESSAGES.systems.load);
  return systemDetailView(row);
}

/** 001 §5: system names must be unique among active systems. */
async function assertActiveNameFree(tx: Tx, systemName: string, exceptId?: number): Promise<void> {
  const clash = await tx.systemAccess.findFirst({
    where: {
      inactive: false,
      systemName: { equals: systemName, mode: 'insensitive' },
      ...(exceptId ? { NOT: { id: exceptId } } : {}),
    },
  });
  if (clash) throw unprocessable({ systemName: [CONFIG_MESSAGES.systems.duplicateName] });
}

async function write<T>(prisma: PrismaClient, work: (tx: Tx) => Promise<T>): Promise<T> {
  const result = await prisma.$transaction(async (tx) => {
    await lockConfig(tx, 'systems');
    return work(tx);
  }, TX_OPTIONS);
  referenceCacheFor(prisma).invalidate(CONFIGURED_LISTS.systems);
  return result;
}

/** POST .../system_access/. @throws 422 (`systemName`, `description`). */
export function createSystem(prisma: PrismaClient, actor: AuditActor, body: SystemBody) {
  return write(prisma, async (tx) => {
    if (!body.inactive) await assertActiveNameFree(tx, body.systemName);
    const row = await tx.systemAccess.create({
      data: {
        systemName: body.systemName,
        description: body.description,
        inactive: body.inactive,
        sort: body.sort ?? 0,
      },
    });
    const after = systemDetailView(row);
    await recordAudit(tx, actor, { entityType: ENTITY, entityId: row.id, action: 'CREATED', after });
    return after;
  });
}

/** PUT .../system_access/{id}: name, description, sort. @throws 304, 404, 422. */
export function updateSystem(prisma: PrismaClient, actor: AuditActor, id: number, body: SystemBody) {
  return write(prisma, async (tx) => {
    const before = await getSystem(tx, id);
    const next = { systemName: body.systemName, description: body.description, sort: body.sort ?? before.sort };
    if (sameSnapshot({ ...before, ...next }, before)) throw notModified();
    if (before.fixed && next.systemName !== before.systemName) throw unprocessable({ systemName: [FIXED_RENAME] });
    if (!before.inactive) await assertActiveNameFree(tx, next.systemName, id);
    const row = await tx.systemAccess.update({ where: { id }, data: next });
    const after = systemDetailView(row);
    await recordAudit(tx, actor, { entityType: ENTITY, entityId: id, action: 'UPDATED', before, after });
    return after;
  });
}

/**
 * PUT .../system_access/{id}/{activate|deactivate}/. @throws 304 when already in that state ('System is
 * already in an active/inactive state.'), 404, 422 (name taken on activation; in use or fixed on deactivation).
 */
export function toggleSystem(prisma: PrismaClient, actor: AuditActor, id: number, action: ToggleAction) {
  return write(prisma, async (tx) => {
    const before = await getSystem(tx, id);
    const inactive = action === 'deactivate';
    if (before.inactive === inactive) throw notModified();
    if (inactive) {
      if (before.fixed) throw unprocessable({}, [FIXED_DEACTIVATE]);
      const roles = (await studyRolesOfSystem(tx, id)).filter((r) => !r.inactive);
      const outstanding = await outstandingRequestsOfSystem(tx, id);
      const pending = await pendingUsersOfSystem(tx, id);
      const blockers = [
        ...(roles.length ? [studyRolesText(roles.map((r) => r.roleName))] : []),
        ...(outstanding.length ? [outstandingText(outstanding.length)] : []),
        ...(pending.length ? [pendingText(pending.length)] : []),
      ];
      if (blockers.length) throw unprocessable({}, blockers);
    } else {
      await assertActiveNameFree(tx, before.systemName, id);
    }
    const row = await tx.systemAccess.update({ where: { id }, data: { inactive } });
    const after = systemDetailView(row);
    const audit = inactive ? 'DEACTIVATED' : 'ACTIVATED';
    await recordAudit(tx, actor, { entityType: ENTITY, entityId: id, action: audit, before, after });
    return after;
  });
}

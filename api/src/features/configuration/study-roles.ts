/**
 * Study roles (001 §3 Study role, §4, §5, §7 Study roles): list with defaultApplicationNames, read, create,
 * update (304 when nothing changed) and activate/deactivate. Rules held here: name 128 and unique,
 * description 1024, at least one default system, the fixed system always among them, a site-requiring role
 * allows AOs or LAOs, and no deactivation while outstanding requests or pending users reference the role.
 * Access records and requests name their role, so a role in use cannot be renamed.
 */
import type { FieldErrors, StudyRoleBody, StudyRoleListItem, ToggleAction } from '@portal/contract';
import { CONFIG_MESSAGES, MESSAGES, studyRoleRuleErrors } from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import { notFound, notModified, unprocessable } from '../../http/errors';
import { type AuditActor, recordAudit } from '../../shared/audit-log';
import { TX_OPTIONS, type Tx, isUniqueViolation, lockConfig, sameSnapshot } from './common';
import { outstandingRequestsOfStudyRole, pendingUsersOfStudyRole, usersOfStudyRole } from './in-use';
import { CONFIGURED_LISTS, referenceCacheFor } from '../../shared/reference-cache';
import { studyRoleListItemView } from './views';

const ENTITY = 'StudyRole';
const include = { systems: { include: { system: true } } } as const;
export const RENAME_IN_USE = 'The name of a study-role that is in use cannot be changed.';
export const outstandingText = (n: number) =>
  `This study-role is referenced by ${n} outstanding user-access modification request(s).`;
export const pendingText = (n: number) => `This study-role is referenced by ${n} pending user registration(s).`;

/** 001 §7: every study role, active or not, sorted by sort then roleName. */
export async function listStudyRoles(prisma: PrismaClient): Promise<StudyRoleListItem[]> {
  const rows = await prisma.studyRole.findMany({ include, orderBy: [{ sort: 'asc' }, { roleName: 'asc' }] });
  return rows.map(studyRoleListItemView);
}

/** @throws HttpError 404 'Problem loading study-role.' */
export async function getStudyRole(db: PrismaClient | Tx, id: number): Promise<StudyRoleListItem> {
  const row = await db.studyRole.findUnique({ where: { id }, include });
  if (!row) throw notFound(CONFIG_MESSAGES.studyRoles.load);
  return studyRoleListItemView(row);
}

/** Field errors of a body against the rules and the database (`current`: the role being edited). */
async function ruleErrors(tx: Tx, body: StudyRoleBody, current?: StudyRoleListItem): Promise<FieldErrors> {
  const errors: FieldErrors = { ...studyRoleRuleErrors(body) };
  const add = (key: string, reason: string) => (errors[key] ??= []).push(reason);
  const clash = await tx.studyRole.findFirst({
    where: {
      roleName: { equals: body.roleName, mode: 'insensitive' },
      ...(current ? { NOT: { id: current.id } } : {}),
    },
  });
  if (clash) add('roleName', 'unique');
  if (current && current.roleName !== body.roleName) {
    const inUse =
      (await usersOfStudyRole(tx, current.roleName)).length +
      (await outstandingRequestsOfStudyRole(tx, current.roleName)).length;
    if (inUse > 0) add('roleName', RENAME_IN_USE);
  }
  const systems = await tx.systemAccess.findMany({
    where: { OR: [{ id: { in: body.systemAccessIds } }, { fixed: true }] },
  });
  const usable = (id: number) => {
    const s = systems.find((x) => x.id === id);
    return !!s && (!s.inactive || !!current?.systemAccessIds.includes(id));
  };
  if (!body.systemAccessIds.every(usable)) add('systemAccessIds', 'nonexistent');
  if (systems.some((s) => s.fixed && !s.inactive && !body.systemAccessIds.includes(s.id))) {
    add('systemAccessIds', MESSAGES.access.fixedSystemRequired);
  }
  return errors;
}

const fields = (b: StudyRoleBody, currentSort = 0) => ({
  roleName: b.roleName,
  description: b.description,
  siteRequired: b.siteRequired,
  studyRequired: b.studyRequired,
  allowAOs: b.allowAOs,
  allowLAOs: b.allowLAOs,
  sort: b.sort ?? currentSort,
});

async function write<T>(prisma: PrismaClient, work: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    const result = await prisma.$transaction(async (tx) => {
      await lockConfig(tx, 'studyRoles');
      return work(tx);
    }, TX_OPTIONS);
    referenceCacheFor(prisma).invalidate(CONFIGURED_LISTS.studyRoles);
    return result;
  } catch (err) {
    if (isUniqueViolation(err)) throw unprocessable({ roleName: ['unique'] });
    throw err;
  }
}

/** POST .../study_role/. @throws 422 with the spec's keys and messages. */
export function createStudyRole(prisma: PrismaClient, actor: AuditActor, body: StudyRoleBody) {
  return write(prisma, async (tx) => {
    const errors = await ruleErrors(tx, body);
    if (Object.keys(errors).length) throw unprocessable(errors);
    const row = await tx.studyRole.create({
      data: {
        ...fields(body),
        inactive: body.inactive,
        systems: { create: body.systemAccessIds.map((systemId) => ({ systemId })) },
      },
    });
    const after = await getStudyRole(tx, row.id);
    await recordAudit(tx, actor, { entityType: ENTITY, entityId: row.id, action: 'CREATED', after });
    return after;
  });
}

/** PUT .../study_role/{id}. Whether the role is active is changed only by activate/deactivate. @throws 304, 404, 422. */
export function updateStudyRole(prisma: PrismaClient, actor: AuditActor, id: number, body: StudyRoleBody) {
  return write(prisma, async (tx) => {
    const before = await getStudyRole(tx, id);
    const next = { ...before, ...fields(body, before.sort), systemAccessIds: body.systemAccessIds };
    if (sameSnapshot({ ...next, defaultApplicationNames: [] }, { ...before, defaultApplicationNames: [] })) {
      throw notModified();
    }
    const errors = await ruleErrors(tx, body, before);
    if (Object.keys(errors).length) throw unprocessable(errors);
    await tx.studyRole.update({
      where: { id },
      data: {
        ...fields(body, before.sort),
        systems: { deleteMany: {}, create: body.systemAccessIds.map((systemId) => ({ systemId })) },
      },
    });
    const after = await getStudyRole(tx, id);
    await recordAudit(tx, actor, { entityType: ENTITY, entityId: id, action: 'UPDATED', before, after });
    return after;
  });
}

/**
 * PUT .../study_role/{id}/{activate|deactivate}. @throws 304 when already in that state, 404, and 422
 * `globalErrors` when outstanding requests or pending users reference the role (001 §4 in-use checks).
 */
export function toggleStudyRole(prisma: PrismaClient, actor: AuditActor, id: number, action: ToggleAction) {
  return write(prisma, async (tx) => {
    const before = await getStudyRole(tx, id);
    const inactive = action === 'deactivate';
    if (before.inactive === inactive) throw notModified();
    if (inactive) {
      const outstanding = await outstandingRequestsOfStudyRole(tx, before.roleName);
      const pending = await pendingUsersOfStudyRole(tx, before.roleName);
      const blockers = [
        ...(outstanding.length ? [outstandingText(outstanding.length)] : []),
        ...(pending.length ? [pendingText(pending.length)] : []),
      ];
      if (blockers.length) throw unprocessable({}, blockers);
    }
    await tx.studyRole.update({ where: { id }, data: { inactive } });
    const after = await getStudyRole(tx, id);
    const audit = inactive ? 'DEACTIVATED' : 'ACTIVATED';
    await recordAudit(tx, actor, { entityType: ENTITY, entityId: id, action: audit, before, after });
    return after;
  });
}

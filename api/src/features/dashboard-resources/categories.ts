/**
 * Resource categories (000 §9, 001 §8; issue 23): a tree of named, ordered categories that ADMIN creates,
 * renames, moves, reorders, activates, deactivates and deletes. Deactivating or deleting a category with an
 * active child category is refused with 'Resource category has active child category(ies)' (001 §8); the three
 * headless categories (Links, Downloads, eLearnings) are neither renamed, moved nor deleted; a category still
 * holding items is not deleted. Every change writes its audit row in its transaction, serialised by one lock.
 */
import {
  DASHBOARD_RESOURCE_AUDIT,
  DASHBOARD_RESOURCE_MESSAGES as TEXT,
  type ResourceCategory,
  type ResourceCategoryBody,
  type ToggleAction,
} from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import { type AuditActor, recordAudit } from '../../shared/audit-log';
import { notFound, notModified, unprocessable } from '../../http/errors';
import { TX_OPTIONS, type Tx } from './tx';
import { compareText } from './views';

const ENTITY = DASHBOARD_RESOURCE_AUDIT.category;

type CategoryRow = {
  id: number;
  name: string;
  parentId: number | null;
  sort: number;
  active: boolean;
  headless: boolean;
};

/** The wire shape of a category row. */
export const categoryView = (row: CategoryRow): ResourceCategory => ({
  id: row.id,
  name: row.name,
  parentId: row.parentId,
  order: row.sort,
  active: row.active,
  headless: row.headless,
});

/** Display order: headless first, then by order, name and id. */
export const byDisplayOrder = (a: ResourceCategory, b: ResourceCategory): number =>
  Number(b.headless) - Number(a.headless) || a.order - b.order || compareText(a.name, b.name) || a.id - b.id;

/** Serialises every change of categories (the tree's rules read several rows). Class 4 = configuration. */
async function lockCategories(tx: Tx): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(4, 101)`;
}

/** Every category, in display order. */
export async function listCategories(prisma: PrismaClient | Tx): Promise<ResourceCategory[]> {
  return (await prisma.resourceCategory.findMany()).map(categoryView).sort(byDisplayOrder);
}

/** @throws HttpError 404 'Problem loading resource category.' */
export async function getCategory(prisma: PrismaClient | Tx, id: number): Promise<ResourceCategory> {
  const row = await prisma.resourceCategory.findUnique({ where: { id } });
  if (!row) throw notFound(TEXT.loadCategory);
  return categoryView(row);
}

async function assertActiveChildren(tx: Tx, id: number): Promise<void> {
  if (await tx.resourceCategory.count({ where: { parentId: id, active: true } })) {
    throw unprocessable({}, [TEXT.activeChildren]);
  }
}

/** The parent must exist and must not be the category itself or one of its descendants. */
async function assertParent(tx: Tx, id: number | null, parentId: number | null): Promise<void> {
  if (parentId === null) return;
  const all = await tx.resourceCategory.findMany({ select: { id: true, parentId: true } });
  const parents = new Map(all.map((c) => [c.id, c.parentId]));
  if (!parents.has(parentId)) throw unprocessable({ parentId: ['nonexistent'] });
  for (let at: number | null | undefined = parentId; at != null; at = parents.get(at)) {
    if (at === id) throw unprocessable({ parentId: [TEXT.parentCycle] });
  }
}

/** POST .../resource_categories. @throws 422 (`name`, `parentId`). */
export async function createCategory(
  prisma: PrismaClient,
  actor: AuditActor,
  body: ResourceCategoryBody,
): Promise<ResourceCategory> {
  return prisma.$transaction(async (tx) => {
    await lockCategories(tx);
    await assertParent(tx, null, body.parentId);
    const row = await tx.resourceCategory.create({
      data: { name: body.name, parentId: body.parentId, sort: body.order, active: body.active },
    });
    const after = categoryView(row);
    await recordAudit(tx, actor, { entityType: ENTITY, entityId: row.id, action: 'CREATED', after });
    return after;
  }, TX_OPTIONS);
}

/** PUT .../resource_categories/{id}: name, parent, order and active flag. @throws 304, 404, 422. */
export async function updateCategory(
  prisma: PrismaClient,
  actor: AuditActor,
  id: number,
  body: ResourceCategoryBody,
): Promise<ResourceCategory> {
  return prisma.$transaction(async (tx) => {
    await lockCategories(tx);
    const before = await getCategory(tx, id);
    const next = { ...before, name: body.name, parentId: body.parentId, order: body.order, active: body.active };
    if ((Object.keys(next) as (keyof ResourceCategory)[]).every((k) => next[k] === before[k])) throw notModified();
    if (before.headless && (next.name !== before.name || next.parentId !== null)) {
      throw unprocessable({}, [TEXT.fixedCategory]);
    }
    await assertParent(tx, id, body.parentId);
    if (before.active && !body.active) await assertActiveChildren(tx, id);
    const row = await tx.resourceCategory.update({
      where: { id },
      data: { name: body.name, parentId: body.parentId, sort: body.order, active: body.active },
    });
    const after = categoryView(row);
    await recordAudit(tx, actor, { entityType: ENTITY, entityId: id, action: 'UPDATED', before, after });
    return after;
  }, TX_OPTIONS);
}

/** PUT .../resource_categories/{activate|deactivate}/{id}. @throws 304 when already so, 404, 422. */
export async function toggleCategory(
  prisma: PrismaClient,
  actor: AuditActor,
  id: number,
  action: ToggleAction,
): Promise<ResourceCategory> {
  return prisma.$transaction(async (tx) => {
    await lockCategories(tx);
    const before = await getCategory(tx, id);
    const active = action === 'activate';
    if (before.active === active) throw notModified();
    if (!active) await assertActiveChildren(tx, id);
    const after = categoryView(await tx.resourceCategory.update({ where: { id }, data: { active } }));
    const audit = active ? 'ACTIVATED' : 'DEACTIVATED';
    await recordAudit(tx, actor, { entityType: ENTITY, entityId: id, action: audit, before, after });
    return after;
  }, TX_OPTIONS);
}

/** DELETE .../resource_categories/{id}. @throws 404, 422 (headless, active children, children or items left). */
export async function deleteCategory(prisma: PrismaClient, actor: AuditActor, id: number): Promise<void> {
  await prisma.$transaction(async (tx) => {
    await lockCategories(tx);
    const before = await getCategory(tx, id);
    if (before.headless) throw unprocessable({}, [TEXT.fixedCategory]);
    await assertActiveChildren(tx, id);
    if (await tx.resourceCategory.count({ where: { parentId: id } })) throw unprocessable({}, [TEXT.hasChildren]);
    if (await tx.dashboardItem.count({ where: { categoryId: id } })) throw unprocessable({}, [TEXT.categoryNotEmpty]);
    await tx.resourceCategory.delete({ where: { id } });
    await recordAudit(tx, actor, { entityType: ENTITY, entityId: id, action: 'DELETED', before });
  }, TX_OPTIONS);
}

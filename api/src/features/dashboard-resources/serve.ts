/**
 * What a signed-in person reads of the resources (issue 23): the dashboard's items and categories, a DOWNLOAD's
 * file (`Content-Disposition: attachment`, the stored type, nosniff) and a card's picture, streamed from the
 * file store chunk by chunk; and an e-learning package's files under their signed path (elearning-serve.ts).
 */
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { DASHBOARD_RESOURCE_MESSAGES as TEXT, type DashboardResources, type ResourceCategory } from '@portal/contract';
import { type PrismaClient, readStoredFile } from '@portal/db';
import { notFound } from '../../http/errors';
import { queryRows } from '../../shared/sql';
import { byDisplayOrder, categoryView } from './categories';
import type { ItemLinks } from './links';
import { type ResourceCaches, dashboardKey } from './cache';
import {
  CategorySqlRowSchema,
  HeldRolesRowsSchema,
  ItemSqlRowSchema,
  categoriesSql,
  heldRolesSql,
  visibleItemSql,
  visibleItemsSql,
} from './sql';
import { byItemOrder, itemView } from './views';

/** The person a read is for: their id and whether they hold ADMIN (who sees every active item). */
export interface Viewer {
  userId: number;
  isAdmin: boolean;
}

/** Every category, read on the API's pg pool. */
async function readCategories(prisma: PrismaClient): Promise<ResourceCategory[]> {
  return z
    .array(CategorySqlRowSchema)
    .parse(await queryRows(prisma, categoriesSql()))
    .map(categoryView);
}

/** The ids of categories shown: active, with every ancestor active. */
function shownCategories(categories: ResourceCategory[]): Map<number, ResourceCategory> {
  const byId = new Map(categories.map((c) => [c.id, c]));
  const shown = new Map<number, ResourceCategory>();
  for (const c of categories) {
    let ok = true;
    for (let at: ResourceCategory | undefined = c, hops = 0; at && hops < 100; hops += 1) {
      if (!at.active) ok = false;
      at = at.parentId === null ? undefined : byId.get(at.parentId);
    }
    if (ok) shown.set(c.id, c);
  }
  return shown;
}

/**
 * GET /rest/secure/dashboard/resources: the viewer's visible items in shown categories, and those categories
 * with their ancestors, in display order. The viewer's active portal roles are read on every call; the answer
 * for that set of roles comes from `caches` when it holds it (cache.ts).
 */
export async function dashboardResources(
  prisma: PrismaClient,
  links: ItemLinks,
  viewer: Viewer,
  caches?: ResourceCaches,
): Promise<DashboardResources> {
  const roleIds = viewer.isAdmin
    ? []
    : HeldRolesRowsSchema.parse(await queryRows(prisma, heldRolesSql(viewer.userId)))[0]!.roleIds;
  const key = dashboardKey(viewer.isAdmin, roleIds);
  const hit = caches?.dashboards.get(key);
  if (hit) return hit;
  const mark = caches?.dashboards.mark ?? 0;
  const answer = await loadDashboard(prisma, links, roleIds, viewer.isAdmin);
  caches?.dashboards.set(key, answer, mark);
  return answer;
}

/** The dashboard's answer for a set of active portal roles (ADMIN: every active item). */
async function loadDashboard(
  prisma: PrismaClient,
  links: ItemLinks,
  roleIds: readonly number[],
  isAdmin: boolean,
): Promise<DashboardResources> {
  const [rows, categories] = await Promise.all([
    queryRows(prisma, visibleItemsSql({ roleIds }, isAdmin)),
    readCategories(prisma),
  ]);
  const shown = shownCategories(categories);
  const items = z
    .array(ItemSqlRowSchema)
    .parse(rows)
    .filter((r) => shown.has(r.categoryId))
    .map((r) => itemView(r, links))
    .sort(byItemOrder);
  const used = new Set<number>();
  for (const item of items) {
    for (let at = shown.get(item.categoryId); at && !used.has(at.id);) {
      used.add(at.id);
      at = at.parentId === null ? undefined : shown.get(at.parentId);
    }
  }
  return { categories: categories.filter((c) => used.has(c.id)).sort(byDisplayOrder), items };
}

/** The item when the viewer sees it (its category shown too); ADMIN with `anyState` reads any. @throws 404. */
async function visibleRow(prisma: PrismaClient, itemId: number, viewer: Viewer, anyState = false) {
  const rows = z
    .array(ItemSqlRowSchema)
    .parse(await queryRows(prisma, visibleItemSql(itemId, viewer.userId, viewer.isAdmin, anyState)));
  const row = rows[0];
  if (!row) throw notFound(TEXT.loadItem);
  if (!(viewer.isAdmin && anyState) && !shownCategories(await readCategories(prisma)).has(row.categoryId)) {
    throw notFound(TEXT.loadItem);
  }
  return row;
}

/** `attachment` with the name as typed (RFC 6266 / 5987) and an ASCII fallback. */
function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

const chunks = (prisma: PrismaClient, sha256: string) =>
  Readable.from(readStoredFile((sql) => queryRows(prisma, sql), sha256));

/** GET .../items/{id}/file: a visible DOWNLOAD's file, as an attachment. @throws 404. */
export async function sendItemFile(prisma: PrismaClient, reply: FastifyReply, itemId: number, viewer: Viewer) {
  const row = await visibleRow(prisma, itemId, viewer);
  if (row.kind !== 'DOWNLOAD' || !row.fileSha256) throw notFound(TEXT.loadItem);
  return reply
    .header('content-type', row.fileContentType ?? 'application/octet-stream')
    .header('content-length', String(row.fileSize ?? 0))
    .header('content-disposition', attachment(row.fileName ?? 'file'))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .send(chunks(prisma, row.fileSha256));
}

/** GET .../items/{id}/image: a visible item's picture (ADMIN: any item's). @throws 404. */
export async function sendItemImage(prisma: PrismaClient, reply: FastifyReply, itemId: number, viewer: Viewer) {
  const row = await visibleRow(prisma, itemId, viewer, true);
  if (!row.imageSha256) throw notFound(TEXT.loadItem);
  const [meta] = await prisma.dashboardItem.findMany({ where: { id: itemId }, select: { imageContentType: true } });
  return reply
    .header('content-type', meta?.imageContentType ?? 'application/octet-stream')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cache-control', 'private, max-age=86400')
    .send(chunks(prisma, row.imageSha256));
}

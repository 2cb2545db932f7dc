/**
 * Dashboard items (000 §6, 001 §6, §8; issue 23), ADMIN's side: list, read, create and update from a multipart
 * upload, activate/deactivate, delete. A save checks the `item` part (the contract's schema under the
 * configured link rules), its category and portal roles, and its files (item-files.ts); every refusal is a 422
 * naming each field, and nothing is stored. Otherwise the files, the item, its roles, its package's files and
 * the audit row commit in one transaction; afterwards the files the change released and no other item uses
 * are removed (collectUnusedFiles).
 */
import {
  DASHBOARD_RESOURCE_AUDIT,
  DASHBOARD_RESOURCE_MESSAGES as TEXT,
  type DashboardItem,
  type DashboardItemBody,
  type FieldErrors,
  type ToggleAction,
  dashboardItemBodySchema,
  zodToFieldErrors,
} from '@portal/contract';
import { type PendingFile, type PrismaClient, collectUnusedFiles, fileTransaction } from '@portal/db';
import type { ApiConfig } from '../../config';
import { notFound, notModified, unprocessable } from '../../http/errors';
import { type AuditActor, recordAudit } from '../../shared/audit-log';
import { type CheckedFiles, checkItemFiles } from './item-files';
import type { ItemLinks } from './links';
import { TX_OPTIONS, type Tx } from './tx';
import { discard, type ItemUpload } from './uploads';
import { type ItemRow, byItemOrder, itemAuditView, itemView } from './views';

const ENTITY = DASHBOARD_RESOURCE_AUDIT.item;
const WITH_ROLES = { portalRoles: { select: { portalRoleId: true } } } as const;

type PrismaItem = Omit<ItemRow, 'portalRoleIds'> & { portalRoles: { portalRoleId: number }[] };

const rowOf = (item: PrismaItem): ItemRow => ({
  ...item,
  portalRoleIds: item.portalRoles.map((r) => r.portalRoleId).sort((a, b) => a - b),
});

/** What the item services need. */
export interface ItemDeps {
  prisma: PrismaClient;
  cfg: ApiConfig;
  links: ItemLinks;
  /** Logs a failure that does not fail the call (removing released files). */
  warn(err: unknown, message: string): void;
}

/** GET .../dashboard_items: every item, active or not, by category order then item order. */
export async function listItems(deps: ItemDeps): Promise<DashboardItem[]> {
  const rows = await deps.prisma.dashboardItem.findMany({ include: WITH_ROLES });
  return rows.map((r) => itemView(rowOf(r), deps.links)).sort(byItemOrder);
}

async function readRow(tx: PrismaClient | Tx, id: number): Promise<ItemRow> {
  const row = await tx.dashboardItem.findUnique({ where: { id }, include: WITH_ROLES });
  if (!row) throw notFound(TEXT.loadItem);
  return rowOf(row);
}

/** GET .../dashboard_items/{id}. @throws HttpError 404. */
export async function getItem(deps: ItemDeps, id: number): Promise<DashboardItem> {
  return itemView(await readRow(deps.prisma, id), deps.links);
}

/** The category and portal roles a body names must exist. */
async function referenceErrors(prisma: PrismaClient, body: DashboardItemBody): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  if (!(await prisma.resourceCategory.count({ where: { id: body.categoryId } }))) {
    errors.categoryId = ['nonexistent'];
  }
  const roles = await prisma.portalRole.count({ where: { id: { in: body.portalRoleIds } } });
  if (roles !== body.portalRoleIds.length) errors.portalRoleIds = ['nonexistent'];
  return errors;
}

/** The item row's file columns after a save: the new files, or the kept ones, or none. */
function fileColumns(body: DashboardItemBody, checked: CheckedFiles, before: ItemRow | null) {
  const keepFile = before && before.kind === body.kind && body.kind !== 'LINK' && !checked.file;
  const file = checked.file
    ? {
        fileSha256: checked.file.pending.sha256,
        fileName: checked.file.name,
        fileSize: BigInt(checked.file.size),
        fileContentType: checked.file.contentType,
        entryPoint: checked.elearning?.entryPoint ?? null,
      }
    : keepFile
      ? {
          fileSha256: before.fileSha256,
          fileName: before.fileName,
          fileSize: before.fileSize === null ? null : BigInt(before.fileSize),
          fileContentType: before.fileContentType,
          entryPoint: before.entryPoint,
        }
      : { fileSha256: null, fileName: null, fileSize: null, fileContentType: null, entryPoint: null };
  const image = checked.image
    ? { imageSha256: checked.image.pending.sha256, imageContentType: checked.image.contentType }
    : body.removeImage || !before
      ? { imageSha256: null, imageContentType: null }
      : {};
  return { ...file, ...image };
}

/** Writes the package's file list of item `id` (replacing any), in batches. */
async function writePackageFiles(tx: Tx, id: number, checked: CheckedFiles, kind: string): Promise<void> {
  if (checked.elearning || kind !== 'ELEARNING') await tx.elearningFile.deleteMany({ where: { itemId: id } });
  const files = checked.elearning?.files ?? [];
  for (let i = 0; i < files.length; i += 1000) {
    await tx.elearningFile.createMany({
      data: files.slice(i, i + 1000).map((f) => ({
        itemId: id,
        path: f.name,
        sha256: f.sha256,
        size: f.size,
        contentType: f.contentType,
      })),
    });
  }
}

/**
 * POST .../dashboard_items (id null) or PUT .../dashboard_items/{id} from `upload`, whose temporary files this
 * removes. @throws HttpError 404 (unknown id), 304 (nothing changed), 422 (fieldErrors of each part).
 */
export async function saveItem(
  deps: ItemDeps,
  actor: AuditActor,
  id: number | null,
  upload: ItemUpload,
): Promise<DashboardItem> {
  try {
    const before = id === null ? null : await readRow(deps.prisma, id);
    const parsed = dashboardItemBodySchema({ allowHttp: deps.cfg.RESOURCE_LINK_ALLOW_HTTP }).safeParse(upload.item);
    if (!parsed.success) {
      const imageOnly = await checkItemFiles(deps.cfg, 'LINK', { image: upload.image }, false, upload.dir);
      throw unprocessable({ ...zodToFieldErrors(parsed.error), ...imageOnly.errors });
    }
    const body = parsed.data;
    const needsFile = !before || before.kind !== body.kind || before.fileSha256 === null;
    const { checked, errors } = await checkItemFiles(deps.cfg, body.kind, upload, needsFile, upload.dir);
    Object.assign(errors, await referenceErrors(deps.prisma, body));
    if (Object.keys(errors).length) throw unprocessable(errors);

    const columns = {
      kind: body.kind,
      title: body.title,
      description: body.description,
      categoryId: body.categoryId,
      sort: body.order,
      active: body.active,
      url: body.url,
      ...fileColumns(body, checked, before),
    };
    const unchanged =
      before &&
      !checked.file &&
      !checked.image &&
      JSON.stringify(before.portalRoleIds) === JSON.stringify(body.portalRoleIds) &&
      (Object.keys(columns) as (keyof typeof columns)[]).every(
        (k) => String(columns[k]) === String(before[k as keyof ItemRow] ?? null),
      );
    if (unchanged) throw notModified();

    const pending: PendingFile[] = [
      ...(checked.file ? [checked.file.pending] : []),
      ...(checked.image ? [checked.image.pending] : []),
      ...(checked.elearning?.files ?? []),
    ];
    const replacesPackage = before?.kind === 'ELEARNING' && (!!checked.elearning || body.kind !== 'ELEARNING');
    const oldPackage = replacesPackage
      ? await deps.prisma.elearningFile.findMany({ where: { itemId: before.id }, select: { sha256: true } })
      : [];
    const saved = await fileTransaction(
      deps.prisma,
      async ({ tx, storeFiles }) => {
        await storeFiles(pending);
        const row = before
          ? await tx.dashboardItem.update({ where: { id: before.id }, data: columns })
          : await tx.dashboardItem.create({ data: columns });
        await tx.dashboardItemPortalRole.deleteMany({ where: { itemId: row.id } });
        await tx.dashboardItemPortalRole.createMany({
          data: body.portalRoleIds.map((portalRoleId) => ({ itemId: row.id, portalRoleId })),
        });
        await writePackageFiles(tx, row.id, checked, body.kind);
        const after = await readRow(tx, row.id);
        await recordAudit(tx, actor, {
          entityType: ENTITY,
          entityId: row.id,
          action: before ? 'UPDATED' : 'CREATED',
          before: before ? itemAuditView(before, deps.links) : undefined,
          after: itemAuditView(after, deps.links),
        });
        return after;
      },
      TX_OPTIONS,
    );
    if (before)
      await release(
        deps,
        before,
        saved,
        oldPackage.map((f) => f.sha256),
      );
    return itemView(saved, deps.links);
  } finally {
    await discard(upload);
  }
}

/** Removes the files `before` used that `after` (if any) no longer does and no other item uses. */
async function release(deps: ItemDeps, before: ItemRow, after: ItemRow | null, packageFiles: string[] = []) {
  const kept = new Set([after?.fileSha256, after?.imageSha256]);
  const candidates = [before.fileSha256, before.imageSha256, ...packageFiles].filter((s) => s && !kept.has(s));
  try {
    await collectUnusedFiles(deps.prisma, candidates);
  } catch (err) {
    // The change has committed; a file left behind only takes space and is collected with the next change.
    deps.warn(err, 'released dashboard files not removed');
  }
}

/** PUT .../dashboard_items/{activate|deactivate}/{id}. @throws 304 when already so, 404. */
export async function toggleItem(
  deps: ItemDeps,
  actor: AuditActor,
  id: number,
  action: ToggleAction,
): Promise<DashboardItem> {
  const after = await deps.prisma.$transaction(async (tx) => {
    const before = await readRow(tx, id);
    const active = action === 'activate';
    if (before.active === active) throw notModified();
    await tx.dashboardItem.update({ where: { id }, data: { active } });
    const row = await readRow(tx, id);
    await recordAudit(tx, actor, {
      entityType: ENTITY,
      entityId: id,
      action: active ? 'ACTIVATED' : 'DEACTIVATED',
      before: itemAuditView(before, deps.links),
      after: itemAuditView(row, deps.links),
    });
    return row;
  }, TX_OPTIONS);
  return itemView(after, deps.links);
}

/** DELETE .../dashboard_items/{id}: the item, its roles and package files, then its unused files. @throws 404. */
export async function deleteItem(deps: ItemDeps, actor: AuditActor, id: number): Promise<void> {
  const { before, packageFiles } = await deps.prisma.$transaction(async (tx) => {
    const row = await readRow(tx, id);
    const files = await tx.elearningFile.findMany({ where: { itemId: id }, select: { sha256: true } });
    await tx.dashboardItem.delete({ where: { id } });
    await recordAudit(tx, actor, {
      entityType: ENTITY,
      entityId: id,
      action: 'DELETED',
      before: itemAuditView(row, deps.links),
    });
    return { before: row, packageFiles: files.map((f) => f.sha256) };
  }, TX_OPTIONS);
  await release(deps, before, null, packageFiles);
}

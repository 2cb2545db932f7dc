/**
 * Dashboard items as the API answers them (contract DashboardItemSchema), from a Prisma row or a row of the
 * dashboard's SQL (sql.ts): the same fields either way.
 */
import type { DashboardItem, DashboardItemKind } from '@portal/contract';
import type { ItemLinks } from './links';

/** The columns an item view is made of. */
export interface ItemRow {
  id: number;
  kind: DashboardItemKind;
  title: string;
  description: string;
  categoryId: number;
  sort: number;
  active: boolean;
  url: string | null;
  fileSha256: string | null;
  fileName: string | null;
  fileSize: bigint | number | string | null;
  fileContentType: string | null;
  entryPoint: string | null;
  imageSha256: string | null;
  updatedAt: Date;
  portalRoleIds: number[];
}

/** The wire shape of `row`; `links` builds its addresses. */
export function itemView(row: ItemRow, links: ItemLinks): DashboardItem {
  const file =
    row.kind !== 'LINK' && row.fileName !== null
      ? { name: row.fileName, size: Number(row.fileSize ?? 0), contentType: row.fileContentType ?? '' }
      : null;
  const openUrl =
    row.kind === 'LINK'
      ? (row.url ?? '')
      : row.kind === 'DOWNLOAD'
        ? links.fileUrl(row.id)
        : links.elearningUrl(row.id, row.entryPoint ?? 'index.html');
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    description: row.description,
    categoryId: row.categoryId,
    order: row.sort,
    active: row.active,
    portalRoleIds: row.portalRoleIds,
    url: row.kind === 'LINK' ? row.url : null,
    file,
    entryPoint: row.kind === 'ELEARNING' ? row.entryPoint : null,
    hasImage: row.imageSha256 !== null,
    imageUrl: row.imageSha256 ? links.imageUrl(row.id, row.imageSha256) : null,
    openUrl,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What the audit trail keeps of an item: its view without the signed address, with its files' digests. */
export function itemAuditView(row: ItemRow, links: ItemLinks): Record<string, unknown> {
  const { openUrl: _openUrl, imageUrl: _imageUrl, updatedAt: _updatedAt, ...rest } = itemView(row, links);
  return { ...rest, fileSha256: row.fileSha256, imageSha256: row.imageSha256 };
}

/** One collator for every comparison: `localeCompare` builds one per call, which a list of 1,000 items feels. */
export const compareText = new Intl.Collator('en').compare;

/** Display order of items: by order, title and id. */
export const byItemOrder = (a: DashboardItem, b: DashboardItem): number =>
  a.order - b.order || compareText(a.title, b.title) || a.id - b.id;

/**
 * The resources' hot reads as SQL (run by queryRows on the API's pg pool, shared/sql.ts): a person's visible
 * items (issue 23 Speed: p95 < 20 ms with 1,000 items and 50 portal roles), whether one item is visible to a
 * person, and an e-learning file with its first chunk (one statement per served file).
 *
 * Visible: the item is active and tied to an active portal role the person holds (ADMIN: every active item).
 * Whether its category and the category's ancestors are active is decided on the categories (few) in code.
 */
import { Prisma } from '@portal/db';
import { z } from 'zod';
import { DASHBOARD_ITEM_KINDS } from '@portal/contract';

const ITEM_COLUMNS = Prisma.sql`
  i."id", i."kind"::text AS "kind", i."title", i."description", i."categoryId", i."sort", i."active", i."url",
  i."fileSha256", i."fileName", i."fileSize"::float8 AS "fileSize", i."fileContentType", i."entryPoint",
  i."imageSha256", i."updatedAt"`;

/** The active portal roles `userId` holds. */
const heldRoles = (userId: number): Prisma.Sql => Prisma.sql`
  SELECT u."portalRoleId"
  FROM "PortalUserRole" u
  JOIN "PortalRole" p ON p."id" = u."portalRoleId" AND NOT p."inactive"
  WHERE u."portalUserId" = ${userId}`;

/** The ids of the active portal roles `userId` holds, ascending, as one row's `roleIds`. */
export const heldRolesSql = (userId: number): Prisma.Sql =>
  Prisma.sql`SELECT COALESCE(array_agg(h."portalRoleId" ORDER BY 1), '{}')::int[] AS "roleIds" FROM (${heldRoles(userId)}) h`;

export const HeldRolesRowsSchema = z.array(z.object({ roleIds: z.array(z.number().int()) })).length(1);

/** Whose items: a person (their active portal roles read by the statement) or a set of active portal roles. */
export type ItemsFor = { userId: number } | { roleIds: readonly number[] };

/** The visible items of `who` with the roles tied to them (only ADMIN gets the role ids). */
export function visibleItemsSql(who: ItemsFor, isAdmin: boolean): Prisma.Sql {
  if (isAdmin) {
    return Prisma.sql`
      SELECT ${ITEM_COLUMNS},
        ARRAY(SELECT r."portalRoleId" FROM "DashboardItemPortalRole" r WHERE r."itemId" = i."id" ORDER BY 1)
          AS "portalRoleIds"
      FROM "DashboardItem" i
      WHERE i."active"`;
  }
  const roles = 'roleIds' in who ? Prisma.sql`SELECT unnest(${[...who.roleIds]}::int[])` : heldRoles(who.userId);
  return Prisma.sql`
    SELECT ${ITEM_COLUMNS}, '{}'::int[] AS "portalRoleIds"
    FROM "DashboardItem" i
    WHERE i."active" AND i."id" IN (
      SELECT r."itemId" FROM "DashboardItemPortalRole" r WHERE r."portalRoleId" IN (${roles}))`;
}

/** Rows of visibleItemsSql. */
export const ItemSqlRowSchema = z.object({
  id: z.number().int(),
  kind: z.enum(DASHBOARD_ITEM_KINDS),
  title: z.string(),
  description: z.string(),
  categoryId: z.number().int(),
  sort: z.number().int(),
  active: z.boolean(),
  url: z.string().nullable(),
  fileSha256: z.string().nullable(),
  fileName: z.string().nullable(),
  fileSize: z.number().nullable(),
  fileContentType: z.string().nullable(),
  entryPoint: z.string().nullable(),
  imageSha256: z.string().nullable(),
  updatedAt: z.date(),
  portalRoleIds: z.array(z.number().int()),
});

/** One item when the person sees it (visibleItemsSql); with `anyState`, ADMIN reads any item, active or not. */
export function visibleItemSql(itemId: number, userId: number, isAdmin: boolean, anyState = false): Prisma.Sql {
  if (isAdmin && anyState) {
    return Prisma.sql`SELECT ${ITEM_COLUMNS}, '{}'::int[] AS "portalRoleIds" FROM "DashboardItem" i WHERE i."id" = ${itemId}`;
  }
  return Prisma.sql`SELECT * FROM (${visibleItemsSql({ userId }, isAdmin)}) v WHERE v."id" = ${itemId}`;
}

/**
 * An active ELEARNING item's file at `path`: its digest, size and type, and its first chunk (the whole file when
 * it is under 1 MiB) unless `withData` is false (the serving process holds the bytes already). No row: no such
 * file, or the item is inactive or gone.
 */
export function elearningFileSql(itemId: number, path: string, withData: boolean): Prisma.Sql {
  const data = withData
    ? Prisma.sql`(SELECT c."data" FROM "StoredFileChunk" c WHERE c."sha256" = e."sha256" AND c."seq" = 0)`
    : Prisma.sql`NULL::bytea`;
  return Prisma.sql`
    SELECT e."sha256", e."size", e."contentType", ${data} AS "data"
    FROM "ElearningFile" e
    JOIN "DashboardItem" i ON i."id" = e."itemId" AND i."active"
    WHERE e."itemId" = ${itemId} AND e."path" = ${path}`;
}

export const ElearningFileRowSchema = z.object({
  sha256: z.string(),
  size: z.number().int(),
  contentType: z.string(),
  data: z.instanceof(Uint8Array).nullable(),
});

/** Every category, for the dashboard's read path (the pg pool, not Prisma's client). */
export const categoriesSql = (): Prisma.Sql =>
  Prisma.sql`SELECT "id", "name", "parentId", "sort", "active", "headless" FROM "ResourceCategory"`;

export const CategorySqlRowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  parentId: z.number().int().nullable(),
  sort: z.number().int(),
  active: z.boolean(),
  headless: z.boolean(),
});

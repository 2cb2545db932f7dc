/**
 * The statements of a reviewer's review items (issue 25 "Reviewers get an 'Access Reviews' screen"): which items
 * a caller may see and decide (their reviewer scope, never their own items), narrowed by campaign, decision
 * state and a text filter, in person order (lastName, firstName, portalUserId, then roleName).
 *
 * Served by the index (campaignId, lastName, firstName, portalUserId, id): one campaign's items are read in
 * name order and only each person's few records are sorted by role (an incremental sort), so a page of 50
 * stops after 50 rows; an LAO's items may instead come from the GIN index on reviewLaoIds when they are few.
 */
import { Prisma } from '@portal/db';
import type { AccessReviewItemsQuery } from '@portal/contract';
import { pageWindow } from '../../http/page';
import { containsPattern } from '../../shared/sql';
import type { ReviewerScope } from './authority';

/** Which of the caller's items: one campaign or several (the open ones), a state, a text. */
export interface ItemSelection {
  campaignIds: readonly number[];
  userId: number;
  scope: ReviewerScope;
  state: AccessReviewItemsQuery['state'];
  filter?: string;
}

/** The person order of the list, the CSV and a bulk decision by filter. */
export const ITEM_ORDER = Prisma.sql`i."lastName", i."firstName", i."portalUserId", i."roleName", i."id"`;
export const ITEM_SORT = 'lastName,firstName,portalUserId,roleName';

/** The condition "the caller may decide item i": User Support, or an LAO of theirs pools it; never their own. */
export function mayDecideSql(userId: number, scope: ReviewerScope): Prisma.Sql {
  const own = Prisma.sql`i."portalUserId" <> ${userId}::int`;
  return scope.support ? own : Prisma.sql`${own} AND i."reviewLaoIds" && ${scope.laoIds}::text[]`;
}

/** The WHERE of the caller's items of `sel`. */
export function itemsWhere(sel: ItemSelection): Prisma.Sql {
  const parts: Prisma.Sql[] = [
    sel.campaignIds.length === 1
      ? Prisma.sql`i."campaignId" = ${sel.campaignIds[0]}::int`
      : Prisma.sql`i."campaignId" = ANY(${sel.campaignIds}::int[])`,
    mayDecideSql(sel.userId, sel.scope),
  ];
  if (sel.state === 'UNDECIDED') parts.push(Prisma.sql`i."decision" IS NULL`);
  else if (sel.state !== 'ALL') parts.push(Prisma.sql`i."decision" = ${sel.state}::"AccessReviewDecision"`);
  if (sel.filter) {
    const p = containsPattern(sel.filter);
    parts.push(Prisma.sql`(i."lastName" ILIKE ${p} OR i."firstName" ILIKE ${p}
      OR (i."firstName" || ' ' || i."lastName") ILIKE ${p} OR i."username" ILIKE ${p} OR i."email" ILIKE ${p}
      OR i."roleName" ILIKE ${p})`);
  }
  return Prisma.join(parts, ' AND ');
}

/** The number of the caller's items of `sel`. */
export const itemsCountSql = (sel: ItemSelection): Prisma.Sql =>
  Prisma.sql`SELECT count(*)::int AS total FROM "AccessReviewItem" i WHERE ${itemsWhere(sel)}`;

/**
 * One page of the caller's items of `sel` with what the screen shows beside the snapshot: the campaign's name
 * and deadline, the systems' names, and whether the record is still the active one (`changed` otherwise).
 */
export function itemsPageSql(sel: ItemSelection, q: { page: number; size: number }): Prisma.Sql {
  const { skip, take } = pageWindow(q);
  return Prisma.sql`
    SELECT p."id", p."campaignId", c."name" AS "campaignName", c."deadline", p."accessId", p."portalUserId",
           p."username", p."firstName", p."lastName", p."email", p."roleName", p."siteCodes", p."laoIds",
           p."studyNames", to_char(p."accessEndDate", 'YYYY-MM-DD') AS "accessEndDate", p."reviewLaoIds",
           p."decision"::text AS "decision", p."comment", p."decidedByUsername", p."decidedAt",
           p."outcome"::text AS "outcome",
           ARRAY(SELECT s."systemName" FROM "SystemAccess" s WHERE s."id" = ANY(p."systemAccessIds")
                  ORDER BY s."sort", s."systemName") AS "systemNames",
           NOT EXISTS (SELECT 1 FROM "UserAccess" a WHERE a."id" = p."accessId" AND a."inactive" = false) AS "changed"
      FROM (SELECT i.* FROM "AccessReviewItem" i WHERE ${itemsWhere(sel)}
             ORDER BY ${ITEM_ORDER} LIMIT ${take}::int OFFSET ${skip}::int) p
      JOIN "AccessReviewCampaign" c ON c."id" = p."campaignId"
     ORDER BY p."lastName", p."firstName", p."portalUserId", p."roleName", p."id"`;
}

/** The ids of the caller's items of `sel`, in person order, at most `limit` (a bulk decision by filter). */
export const itemIdsSql = (sel: ItemSelection, limit: number): Prisma.Sql =>
  Prisma.sql`SELECT i."id" FROM "AccessReviewItem" i WHERE ${itemsWhere(sel)} ORDER BY ${ITEM_ORDER} LIMIT ${limit}::int`;

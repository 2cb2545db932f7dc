/**
 * The statements of a reviewer's review items (issue 25 "Reviewers get an 'Access Reviews' screen"): which items
 * a caller may see and decide (their reviewer scope, never their own items), narrowed by campaign, decision
 * state and a text filter, in person order (lastName, firstName, portalUserId, then roleName).
 *
 * Served by the index (campaignId, lastName, firstName, portalUserId, roleName, id) INCLUDE (decision,
 * reviewLaoIds): one campaign's items are read in the list's order, and the rows a page skips (an OFFSET, other
 * pools' items, decided ones) are judged from the index alone; only the page's own rows are read from the table
 * (a deferred join). An LAO's items may instead come from the GIN index on reviewLaoIds when they are few.
 */
import { Prisma } from '@portal/db';
import type { AccessReviewItemsQuery } from '@portal/contract';
import { pageWindow } from '../../http/page';
import { type OrderKey, type PageWindow, deepPageWindow, limitOffset, orderByText } from '../../shared/deep-page';
import { containsPattern } from '../../shared/sql';
import type { ReviewerScope } from '../../shared/access-review-authority';

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
const ITEM_KEYS: OrderKey[] = ['lastName', 'firstName', 'portalUserId', 'roleName', 'id'].map((c) => ({
  column: `i."${c}"`,
  dir: 'asc',
}));
export const ITEM_SORT = 'lastName,firstName,portalUserId,roleName';

/**
 * The pools a scope reviews, over the alias `a` of items or counts. `walk`: written so that no index can answer
 * it (the page is then read in the person index's order, see `pagePlanOf`).
 */
const poolsSql = (a: 'i' | 'k', scope: ReviewerScope, walk = false): Prisma.Sql => {
  if (scope.support) return Prisma.sql`true`;
  const overlap = Prisma.sql`${Prisma.raw(a)}."reviewLaoIds" && ${scope.laoIds}::text[]`;
  return walk ? Prisma.sql`COALESCE(${overlap}, false)` : overlap;
};

/** The condition "the caller may decide item i": User Support, or an LAO of theirs pools it; never their own. */
export const mayDecideSql = (userId: number, scope: ReviewerScope, walk = false): Prisma.Sql =>
  Prisma.sql`i."portalUserId" <> ${userId}::int AND ${poolsSql('i', scope, walk)}`;

/** The campaign condition over the alias `a` of items or counts. */
const campaignsSql = (a: 'i' | 'k', ids: readonly number[]): Prisma.Sql =>
  ids.length === 1
    ? Prisma.sql`${Prisma.raw(a)}."campaignId" = ${ids[0]}::int`
    : Prisma.sql`${Prisma.raw(a)}."campaignId" = ANY(${ids}::int[])`;

/** The decision state over items i. */
function stateSql(state: ItemSelection['state']): Prisma.Sql {
  if (state === 'UNDECIDED') return Prisma.sql`i."decision" IS NULL`;
  if (state === 'ALL') return Prisma.sql`true`;
  return Prisma.sql`i."decision" = ${state}::"AccessReviewDecision"`;
}

/** The WHERE of the caller's items of `sel` (`walk`: see `poolsSql`). */
export function itemsWhere(sel: ItemSelection, walk = false): Prisma.Sql {
  const parts = [campaignsSql('i', sel.campaignIds), mayDecideSql(sel.userId, sel.scope, walk), stateSql(sel.state)];
  if (sel.filter) {
    const p = containsPattern(sel.filter);
    parts.push(Prisma.sql`(i."lastName" ILIKE ${p} OR i."firstName" ILIKE ${p}
      OR (i."firstName" || ' ' || i."lastName") ILIKE ${p} OR i."username" ILIKE ${p} OR i."email" ILIKE ${p}
      OR i."roleName" ILIKE ${p})`);
  }
  return Prisma.join(parts, ' AND ');
}

/**
 * The number of the caller's items of `sel` (`total`) and of all the items of its campaigns (`campaignTotal`).
 * Without a text filter it is read from the counts kept per pool and decision (migration
 * 20261207100000_access_review_item_counts; '' is undecided there) less the caller's own items of those pools
 * (on the index of campaign and person), so 100,000 items are not counted one by one.
 */
export function itemsCountSql(sel: ItemSelection): Prisma.Sql {
  const campaignTotal = Prisma.sql`COALESCE((SELECT sum(k."n") FROM "AccessReviewItemCount" k
    WHERE ${campaignsSql('k', sel.campaignIds)}), 0)::int AS "campaignTotal"`;
  if (sel.filter) {
    return Prisma.sql`SELECT count(*)::int AS total, ${campaignTotal} FROM "AccessReviewItem" i WHERE ${itemsWhere(sel)}`;
  }
  const state =
    sel.state === 'ALL' ? Prisma.sql`true` : Prisma.sql`k."decision" = ${sel.state === 'UNDECIDED' ? '' : sel.state}`;
  return Prisma.sql`SELECT (
      COALESCE((SELECT sum(k."n") FROM "AccessReviewItemCount" k
                 WHERE ${campaignsSql('k', sel.campaignIds)} AND ${poolsSql('k', sel.scope)} AND ${state}), 0)
      - (SELECT count(*) FROM "AccessReviewItem" i
          WHERE ${campaignsSql('i', sel.campaignIds)} AND i."portalUserId" = ${sel.userId}::int
            AND ${poolsSql('i', sel.scope)} AND ${stateSql(sel.state)})
    )::int AS total, ${campaignTotal}`;
}

/** How a page of one campaign's items is read once its total is known (`pagePlanOf`). */
export interface PagePlan {
  window: PageWindow;
  /** Walk the person index in order, judging the pools there (never fetch and sort the whole pool). */
  walk: boolean;
}

/**
 * The plan of page `q` of one campaign without a text filter, knowing the caller's `total` items of the
 * `campaignTotal`: past the middle it is read from the end (shared/deep-page.ts); when the caller's pools hold at
 * least a tenth of the campaign, the person index is walked in order. PostgreSQL would otherwise fetch and sort
 * the whole pool through the GIN index for a deep page, which costs more once the pool is large (measured with
 * 17,000 of 100,000 items: the middle page 45 ms fetched and sorted, 29 ms walked); for a small pool the GIN
 * index stays the planner's choice.
 */
export function pagePlanOf(
  q: { page: number; size: number },
  total: number,
  campaignTotal: number,
  scope: ReviewerScope,
): PagePlan {
  return { window: deepPageWindow(q.page, q.size, total), walk: !scope.support && total * 10 >= campaignTotal };
}

/**
 * The rows of one page of the caller's items: with one campaign, read in the index's order; with several (the
 * open ones), each campaign's first `skip + take` rows in its index's order, merged, so no statement sorts
 * every item of every campaign.
 */
function pageOf(sel: ItemSelection, skip: number, take: number, plan?: PagePlan): Prisma.Sql {
  const one = (s: ItemSelection, window: PageWindow, walk = false) =>
    Prisma.sql`SELECT i.* FROM "AccessReviewItem" i
      WHERE i."id" IN (SELECT i."id" FROM "AccessReviewItem" i WHERE ${itemsWhere(s, walk)}
                        ORDER BY ${Prisma.raw(orderByText(ITEM_KEYS, window.reversed))} ${limitOffset(window)})`;
  if (sel.campaignIds.length === 1) {
    return plan ? one(sel, plan.window, plan.walk) : one(sel, { offset: skip, limit: take, reversed: false });
  }
  const branches = sel.campaignIds.map(
    (id) => Prisma.sql`(${one({ ...sel, campaignIds: [id] }, { offset: 0, limit: skip + take, reversed: false })})`,
  );
  return Prisma.sql`SELECT m.* FROM (${Prisma.join(branches, ' UNION ALL ')}) m
    ORDER BY m."lastName", m."firstName", m."portalUserId", m."roleName", m."id" LIMIT ${take}::int OFFSET ${skip}::int`;
}

/**
 * One page of the caller's items of `sel` with what the screen shows beside the snapshot: the campaign's name
 * and deadline, the systems' names, and whether the record is still the active one (`changed` otherwise).
 * `plan`: how one campaign's page is read once its total is known (`pagePlanOf`); without it, from the start.
 */
export function itemsPageSql(sel: ItemSelection, q: { page: number; size: number }, plan?: PagePlan): Prisma.Sql {
  const { skip, take } = pageWindow(q);
  return Prisma.sql`
    SELECT p."id", p."campaignId", c."name" AS "campaignName", c."deadline", p."accessId", p."portalUserId",
           p."username", p."firstName", p."lastName", p."email", p."roleName", p."siteCodes", p."laoIds",
           p."studyNames", to_char(p."accessEndDate", 'YYYY-MM-DD') AS "accessEndDate", p."reviewLaoIds",
           p."decision"::text AS "decision", p."comment", p."decidedByUsername", p."decidedAt",
           p."outcome"::text AS "outcome",
           ARRAY(SELECT s."systemName" FROM "SystemAccess" s WHERE s."id" = ANY(p."systemAccessIds")
                  ORDER BY s."sort", s."systemName") AS "systemNames",
           -- A scalar subquery: one look-up by primary key per row of the page, never a hash of every record. The
           -- campaign's own removal leaves the record inactive too: that is its outcome, not a change.
           p."outcome" IS DISTINCT FROM 'REMOVED'
             AND COALESCE((SELECT a."inactive" FROM "UserAccess" a WHERE a."id" = p."accessId"), true) AS "changed"
      FROM (${pageOf(sel, skip, take, plan)}) p
      JOIN "AccessReviewCampaign" c ON c."id" = p."campaignId"
     ORDER BY p."lastName", p."firstName", p."portalUserId", p."roleName", p."id"`;
}

/** The ids of the caller's items of `sel`, in person order, at most `limit` (a bulk decision by filter). */
export const itemIdsSql = (sel: ItemSelection, limit: number): Prisma.Sql =>
  Prisma.sql`SELECT i."id" FROM "AccessReviewItem" i WHERE ${itemsWhere(sel)} ORDER BY ${ITEM_ORDER} LIMIT ${limit}::int`;

/**
 * The OPEN campaigns holding items the caller may decide, with their totals and undecided counts (from the
 * counts, less the caller's own items), soonest deadline first.
 */
export const myCampaignsSql = (userId: number, scope: ReviewerScope): Prisma.Sql => Prisma.sql`
  WITH open AS (SELECT c."id", c."name", c."deadline" FROM "AccessReviewCampaign" c WHERE c."status" = 'OPEN'),
  k AS (SELECT k."campaignId", sum(k."n") AS total, COALESCE(sum(k."n") FILTER (WHERE k."decision" = ''), 0) AS undecided
          FROM "AccessReviewItemCount" k WHERE k."campaignId" IN (SELECT "id" FROM open) AND ${poolsSql('k', scope)}
         GROUP BY 1),
  own AS (SELECT i."campaignId", count(*) AS total, count(*) FILTER (WHERE i."decision" IS NULL) AS undecided
            FROM "AccessReviewItem" i
           WHERE i."campaignId" IN (SELECT "id" FROM open) AND i."portalUserId" = ${userId}::int AND ${poolsSql('i', scope)}
           GROUP BY 1)
  SELECT o."id", o."name", o."deadline", (k.total - COALESCE(own.total, 0))::int AS total,
         (k.undecided - COALESCE(own.undecided, 0))::int AS undecided
    FROM open o JOIN k ON k."campaignId" = o."id" LEFT JOIN own ON own."campaignId" = o."id"
   WHERE k.total - COALESCE(own.total, 0) > 0
   ORDER BY o."deadline" NULLS LAST, o."id"`;

/**
 * A reviewer's review items (issue 25; GET /rest/secure/access_review/items and /mine): the page of the caller's
 * items in the open campaigns (or in the campaign named, which stays listed read-only with its outcomes once
 * closed), and the open campaigns the caller reviews with their counts. 403 for someone who reviews nothing.
 */
import { z } from 'zod';
import {
  type AccessReviewItem,
  AccessReviewItemSchema,
  type AccessReviewItemsQuery,
  type MyAccessReviews,
  type Page,
  USER_SUPPORT_POOL,
} from '@portal/contract';
import { Prisma, type PrismaClient } from '@portal/db';
import type { AuthContext } from '../../auth/guard';
import { forbidden } from '../../http/errors';
import { toPage } from '../../http/page';
import { CountRowsSchema, queryRows } from '../../shared/sql';
import { type ReviewerScope, reviewerScopeOf, reviewsAnything } from './authority';
import { type ItemSelection, ITEM_SORT, itemsCountSql, itemsPageSql, mayDecideSql } from './items-sql';

/** A row of `itemsPageSql`: the wire item with dates as read, nullable arrays and the pools' source. */
const ItemRowSchema = AccessReviewItemSchema.omit({ pools: true }).extend({
  deadline: z.date().nullable(),
  decidedAt: z.date().nullable(),
  siteCodes: z.array(z.string()).nullable(),
  laoIds: z.array(z.string()).nullable(),
  studyNames: z.array(z.string()).nullable(),
  reviewLaoIds: z.array(z.string()).nullable(),
});
type ItemRow = z.infer<typeof ItemRowSchema>;

/** The reviewing pools of an item: its LAOs, or User Support when it has none. */
export const poolsOf = (reviewLaoIds: readonly string[] | null): string[] =>
  reviewLaoIds?.length ? [...reviewLaoIds] : [USER_SUPPORT_POOL];

const itemView = ({ reviewLaoIds, ...r }: ItemRow): AccessReviewItem => ({
  ...r,
  deadline: r.deadline?.toISOString() ?? null,
  siteCodes: r.siteCodes ?? [],
  laoIds: r.laoIds ?? [],
  studyNames: r.studyNames ?? [],
  pools: poolsOf(reviewLaoIds),
  decidedAt: r.decidedAt?.toISOString() ?? null,
});

/**
 * The caller's reviewer scope, refusing someone who reviews nothing.
 * @throws HttpError 403 when the caller is neither User Support nor holds the reviewer study role.
 */
export async function requireReviewer(
  prisma: PrismaClient,
  studyRole: string,
  actor: AuthContext,
): Promise<ReviewerScope> {
  const scope = await reviewerScopeOf(prisma, studyRole, actor);
  if (!reviewsAnything(scope)) throw forbidden();
  return scope;
}

/** The ids of the OPEN campaigns (few: the campaigns running now). */
async function openCampaignIds(prisma: PrismaClient): Promise<number[]> {
  const rows = await prisma.accessReviewCampaign.findMany({ where: { status: 'OPEN' }, select: { id: true } });
  return rows.map((r) => r.id);
}

/** One page of the caller's items (`ITEM_SORT` order). @throws HttpError 403 for someone who reviews nothing. */
export async function listItems(
  prisma: PrismaClient,
  studyRole: string,
  actor: AuthContext,
  q: AccessReviewItemsQuery,
): Promise<Page<AccessReviewItem>> {
  const scope = await requireReviewer(prisma, studyRole, actor);
  const campaignIds = q.campaignId ? [q.campaignId] : await openCampaignIds(prisma);
  if (!campaignIds.length) return toPage([], 0, q, ITEM_SORT);
  const sel: ItemSelection = {
    campaignIds,
    userId: actor.userId,
    scope,
    state: q.state,
    filter: q.filter || undefined,
  };
  // Planned for its values each time: the best plan depends on the LAOs and the filter (shared/sql.ts).
  const [count, rows] = await Promise.all([
    queryRows(prisma, itemsCountSql(sel), { prepare: false }),
    queryRows(prisma, itemsPageSql(sel, q), { prepare: false }),
  ]);
  const total = CountRowsSchema.parse(count)[0]!.total;
  return toPage(z.array(ItemRowSchema).parse(rows).map(itemView), total, q, ITEM_SORT);
}

const MineRowsSchema = z.array(
  z.object({
    id: z.number().int(),
    name: z.string(),
    deadline: z.date().nullable(),
    total: z.number().int(),
    undecided: z.number().int(),
  }),
);

/** Whether the caller reviews, and the open campaigns holding items they may decide, soonest deadline first. */
export async function myAccessReviews(
  prisma: PrismaClient,
  studyRole: string,
  actor: AuthContext,
): Promise<MyAccessReviews> {
  const scope = await reviewerScopeOf(prisma, studyRole, actor);
  if (!reviewsAnything(scope)) return { reviewer: false, campaigns: [] };
  const rows = await queryRows(
    prisma,
    Prisma.sql`SELECT c."id", c."name", c."deadline", count(*)::int AS total,
                      count(*) FILTER (WHERE i."decision" IS NULL)::int AS undecided
                 FROM "AccessReviewCampaign" c JOIN "AccessReviewItem" i ON i."campaignId" = c."id"
                WHERE c."status" = 'OPEN' AND ${mayDecideSql(actor.userId, scope)}
                GROUP BY c."id" ORDER BY c."deadline" NULLS LAST, c."id"`,
    { prepare: false },
  );
  return {
    reviewer: true,
    campaigns: MineRowsSchema.parse(rows).map((r) => ({ ...r, deadline: r.deadline?.toISOString() ?? null })),
  };
}

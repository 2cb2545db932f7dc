/**
 * A reviewer's review items (issue 25; GET /rest/secure/access_review/items and /mine): the page of the caller's
 * items in the open campaigns (or in the campaign named, which stays listed read-only with its outcomes once
 * closed), and the open campaigns the caller reviews with their counts. 403 for someone who reviews nothing.
 * With SIGNATURES=on each item carries the signature of its decision (`itemSignatures`: one statement a page).
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
import { ADMIN_SIGNED_ENTITIES, Prisma, type PrismaClient, type Signature } from '@portal/db';
import { adminSignatureViews } from '../../shared/signature-views';
import type { AuthContext } from '../../auth/guard';
import { forbidden } from '../../http/errors';
import { toPage } from '../../http/page';
import { queryRows } from '../../shared/sql';
import {
  type ReviewerScope,
  reviewerLaosSql,
  reviewsAnything,
  scopeFromRows,
} from '../../shared/access-review-authority';
import { type ItemSelection, ITEM_SORT, itemsCountSql, itemsPageSql, myCampaignsSql, pagePlanOf } from './items-sql';

/** The row of `itemsCountSql`. */
const CountsSchema = z.array(z.object({ total: z.number().int(), campaignTotal: z.number().int() })).length(1);

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

/** The caller's reviewer scope, read on the API's pg pool (the hot path of every reviewer call). */
export async function reviewerScope(
  prisma: PrismaClient,
  studyRole: string,
  actor: AuthContext,
): Promise<ReviewerScope> {
  return scopeFromRows(actor, await queryRows(prisma, reviewerLaosSql(studyRole, actor.userId)));
}

/**
 * The caller's reviewer scope, refusing someone who reviews nothing.
 * @throws HttpError 403 when the caller is neither User Support nor holds the reviewer study role.
 */
export async function requireReviewer(
  prisma: PrismaClient,
  studyRole: string,
  actor: AuthContext,
): Promise<ReviewerScope> {
  const scope = await reviewerScope(prisma, studyRole, actor);
  if (!reviewsAnything(scope)) throw forbidden();
  return scope;
}

/** The ids of the OPEN campaigns (few: the campaigns running now). */
async function openCampaignIds(prisma: PrismaClient): Promise<number[]> {
  const rows = await prisma.accessReviewCampaign.findMany({ where: { status: 'OPEN' }, select: { id: true } });
  return rows.map((r) => r.id);
}

/**
 * The page's items with the signature of their decision: the ACCESS_REVIEW_DECISION signatures of the page's
 * campaigns made at one of its items' decision times (one statement), each given to the items it names whose
 * decision is still that one (decidedAt); an undecided or defaulted item has none.
 */
export async function itemSignatures(prisma: PrismaClient, items: AccessReviewItem[]): Promise<AccessReviewItem[]> {
  const decided = items.filter((i) => i.decidedAt !== null);
  const rows = decided.length
    ? await prisma.$queryRaw<Signature[]>(Prisma.sql`
        SELECT s.* FROM "Signature" s
         WHERE s."entityType" = ${ADMIN_SIGNED_ENTITIES.campaign}
           AND s."entityId" = ANY(${[...new Set(decided.map((i) => String(i.campaignId)))]}::text[])
           AND s.action = 'ACCESS_REVIEW_DECISION'
           AND s.content->>'decidedAt' = ANY(${[...new Set(decided.map((i) => i.decidedAt!))]}::text[])
         ORDER BY s."signedAt", s.id`)
    : [];
  const views = await adminSignatureViews(prisma, rows);
  const content = (r: Signature) => (r.content ?? {}) as { decidedAt?: string; items?: { itemId?: number }[] };
  return items.map((item) => ({
    ...item,
    signatures: rows
      .filter(
        (r) =>
          r.entityId === String(item.campaignId) &&
          content(r).decidedAt === item.decidedAt &&
          (content(r).items ?? []).some((x) => x.itemId === item.id),
      )
      .map((r) => views.get(r.id)!),
  }));
}

/** One page of the caller's items (`ITEM_SORT` order), for the scope `requireReviewer` answered. */
export async function listItems(
  prisma: PrismaClient,
  actor: AuthContext,
  scope: ReviewerScope,
  q: AccessReviewItemsQuery,
  show: { signatures: boolean } = { signatures: false },
): Promise<Page<AccessReviewItem>> {
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
  const opts = { prepare: false };
  let counts: { total: number; campaignTotal: number };
  let rows: unknown[];
  if (campaignIds.length === 1 && !sel.filter) {
    // Counted first (from the kept counts, at once): the total decides how a deep page is read (pagePlanOf).
    counts = CountsSchema.parse(await queryRows(prisma, itemsCountSql(sel), opts))[0]!;
    const plan = pagePlanOf(q, counts.total, counts.campaignTotal, scope);
    rows = await queryRows(prisma, itemsPageSql(sel, q, plan), opts);
  } else {
    const [count, page] = await Promise.all([
      queryRows(prisma, itemsCountSql(sel), opts),
      queryRows(prisma, itemsPageSql(sel, q), opts),
    ]);
    counts = CountsSchema.parse(count)[0]!;
    rows = page;
  }
  const items = z.array(ItemRowSchema).parse(rows).map(itemView);
  return toPage(show.signatures ? await itemSignatures(prisma, items) : items, counts.total, q, ITEM_SORT);
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
  const scope = await reviewerScope(prisma, studyRole, actor);
  if (!reviewsAnything(scope)) return { reviewer: false, campaigns: [] };
  const rows = await queryRows(prisma, myCampaignsSql(actor.userId, scope), { prepare: false });
  return {
    reviewer: true,
    campaigns: MineRowsSchema.parse(rows).map((r) => ({ ...r, deadline: r.deadline?.toISOString() ?? null })),
  };
}

/**
 * ADMIN's reads of campaigns (issue 25 "ADMIN sees each campaign's progress (decided / undecided / to remove, a
 * chart by reviewer)"): a page of campaigns, newest first, with their counts from one grouped query over the
 * page's campaigns; one campaign with its decisions per reviewer and its undecided items per reviewing pool.
 */
import { z } from 'zod';
import {
  ACCESS_REVIEW_MESSAGES,
  type AccessReviewCampaign,
  type AccessReviewCampaignDetail,
  type Page,
  USER_SUPPORT_POOL,
} from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import { notFound } from '../../http/errors';
import { pageWindow, toPage } from '../../http/page';
import type { TemporalUi } from '../../shared/views';
import { campaignProgress, campaignView, loadCampaignView } from './views';

/** A page of campaigns, newest first. */
export async function listCampaigns(
  prisma: PrismaClient,
  q: { page: number; size: number },
  ui: TemporalUi,
): Promise<Page<AccessReviewCampaign>> {
  const [rows, total] = await Promise.all([
    prisma.accessReviewCampaign.findMany({ orderBy: [{ sysdat: 'desc' }, { id: 'desc' }], ...pageWindow(q) }),
    prisma.accessReviewCampaign.count(),
  ]);
  const progress = await campaignProgress(
    prisma,
    rows.map((r) => r.id),
  );
  return toPage(
    rows.map((r) => campaignView(r, progress.get(r.id), ui)),
    total,
    q,
    'sysdat,desc',
  );
}

const ByReviewerSchema = z.array(z.object({ username: z.string(), keep: z.number().int(), remove: z.number().int() }));
const ByPoolSchema = z.array(z.object({ pool: z.string(), count: z.number().int() }));

/**
 * Campaign `id` with `byReviewer` (the reviewers' own decisions, defaults not counted, most first) and
 * `undecidedByPool` (an item pooled to two LAOs counts in both). @throws HttpError 404 for an unknown id.
 */
export async function campaignDetail(
  prisma: PrismaClient,
  id: number,
  ui: TemporalUi,
): Promise<AccessReviewCampaignDetail> {
  const campaign = await prisma.accessReviewCampaign.findUnique({ where: { id } });
  if (!campaign) throw notFound(ACCESS_REVIEW_MESSAGES.loadCampaign);
  const [view, byReviewer, byPool] = await Promise.all([
    loadCampaignView(prisma, campaign, ui),
    prisma.$queryRaw`
      SELECT "decidedByUsername" AS username,
             count(*) FILTER (WHERE "decision" = 'KEEP')::int AS keep,
             count(*) FILTER (WHERE "decision" = 'REMOVE')::int AS remove
        FROM "AccessReviewItem"
       WHERE "campaignId" = ${id}::int AND "decision" IS NOT NULL AND NOT "defaulted" AND "decidedByUsername" IS NOT NULL
       GROUP BY "decidedByUsername" ORDER BY count(*) DESC, "decidedByUsername"`,
    prisma.$queryRaw`
      SELECT COALESCE(p.lao, ${USER_SUPPORT_POOL}) AS pool, count(*)::int AS count
        FROM "AccessReviewItem" i LEFT JOIN LATERAL unnest(i."reviewLaoIds") p(lao) ON true
       WHERE i."campaignId" = ${id}::int AND i."decision" IS NULL
       GROUP BY 1 ORDER BY 2 DESC, 1`,
  ]);
  return { ...view, byReviewer: ByReviewerSchema.parse(byReviewer), undecidedByPool: ByPoolSchema.parse(byPool) };
}

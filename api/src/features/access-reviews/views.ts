/**
 * Row-to-wire mappers of access review campaigns (issue 25; contract/src/access-reviews.ts): a campaign with
 * its progress, a recurring review (schedule) and the Temporal Web UI links of both.
 */
import {
  type AccessReviewCampaign,
  type AccessReviewSchedule,
  type AccessReviewScope,
  AccessReviewScopeSchema,
} from '@portal/contract';
import type { Prisma, PrismaClient } from '@portal/db';
import { accessReviewScheduleId } from '@portal/workflows';
import { type TemporalUi, workflowUrl } from '../../shared/views';

type Db = PrismaClient | Prisma.TransactionClient;
type CampaignRow = Prisma.AccessReviewCampaignGetPayload<object>;
type ScheduleRow = Prisma.AccessReviewScheduleGetPayload<object>;

/** A campaign's counts read from its items (the chart's numbers). */
export interface CampaignProgress {
  itemsTotal: number;
  /** Decided by a reviewer (the defaults applied at close not counted). */
  decided: number;
  /** Decided Remove by a reviewer or by the default. */
  toRemove: number;
}

const NO_PROGRESS: CampaignProgress = { itemsTotal: 0, decided: 0, toRemove: 0 };

/** The stored scope (JSON), read as the contract's scope (lists absent in old rows: empty). */
export const scopeOf = (json: unknown): AccessReviewScope => AccessReviewScopeSchema.parse(json ?? {});

/**
 * The progress of each campaign of `ids`, in one grouped query over the counts of their items kept per pool,
 * decision and default (migration 20261207100000_access_review_item_counts), so a page of campaigns of 100,000
 * items each counts no item (campaign id → counts; a campaign without items is absent).
 */
export async function campaignProgress(db: Db, ids: readonly number[]): Promise<Map<number, CampaignProgress>> {
  if (!ids.length) return new Map();
  const rows = await db.$queryRaw<{ campaignId: number; total: number; decided: number; toRemove: number }[]>`
    SELECT "campaignId",
           sum("n")::int AS total,
           COALESCE(sum("n") FILTER (WHERE "decision" <> '' AND NOT "defaulted"), 0)::int AS decided,
           COALESCE(sum("n") FILTER (WHERE "decision" = 'REMOVE'), 0)::int AS "toRemove"
      FROM "AccessReviewItemCount" WHERE "campaignId" = ANY(${ids}::int[])
     GROUP BY "campaignId"`;
  return new Map(rows.map((r) => [r.campaignId, { itemsTotal: r.total, decided: r.decided, toRemove: r.toRemove }]));
}

const isoOrNull = (d: Date | null): string | null => d?.toISOString() ?? null;

/**
 * A campaign as ADMIN sees it. `toRemove` counts the Remove decisions while the campaign runs and the removals
 * done once it closed.
 */
export function campaignView(
  c: CampaignRow,
  progress: CampaignProgress | undefined,
  ui: TemporalUi,
): AccessReviewCampaign {
  const p = progress ?? NO_PROGRESS;
  const itemsTotal = Math.max(p.itemsTotal, c.itemsTotal);
  return {
    id: c.id,
    workflowId: c.workflowId,
    workflowUrl: workflowUrl(ui.uiUrl, ui.namespace, c.workflowId),
    name: c.name,
    scope: scopeOf(c.scope),
    reviewers: c.reviewers,
    durationDays: c.durationDays,
    reminderEveryDays: c.reminderEveryDays,
    defaultDecision: c.defaultDecision,
    status: c.status,
    scheduleId: c.scheduleId,
    createdByUsername: c.createdByUsername,
    sysdat: c.sysdat.toISOString(),
    openedAt: isoOrNull(c.openedAt),
    deadline: isoOrNull(c.deadline),
    closedAt: isoOrNull(c.closedAt),
    closedByUsername: c.closedByUsername,
    itemsTotal,
    decided: p.decided,
    undecided: itemsTotal - p.decided,
    toRemove: c.status === 'CLOSED' ? c.removedCount : p.toRemove,
    removedCount: c.removedCount,
    keptCount: c.keptCount,
    changedCount: c.changedCount,
  };
}

/** One campaign with its progress. */
export async function loadCampaignView(db: Db, c: CampaignRow, ui: TemporalUi): Promise<AccessReviewCampaign> {
  return campaignView(c, (await campaignProgress(db, [c.id])).get(c.id), ui);
}

/** Link to a Temporal Schedule in the Temporal Web UI, or null when no UI is configured. */
export function scheduleUrl(ui: TemporalUi, scheduleId: string): string | null {
  if (!ui.uiUrl) return null;
  return `${ui.uiUrl.replace(/\/$/, '')}/namespaces/${encodeURIComponent(ui.namespace)}/schedules/${encodeURIComponent(scheduleId)}`;
}

/** A recurring access review with the number of campaigns it has filed. */
export function scheduleView(s: ScheduleRow, campaigns: number, ui: TemporalUi): AccessReviewSchedule {
  const scheduleId = accessReviewScheduleId(s.id);
  return {
    id: s.id,
    scheduleId,
    scheduleUrl: scheduleUrl(ui, scheduleId),
    name: s.name,
    scope: scopeOf(s.scope),
    reviewers: s.reviewers,
    durationDays: s.durationDays,
    reminderEveryDays: s.reminderEveryDays,
    defaultDecision: s.defaultDecision,
    everyDays: s.everyDays,
    inactive: s.inactive,
    sysdat: s.sysdat.toISOString(),
    campaigns,
  };
}

/**
 * What an access review campaign writes at close (issue 25 "Access review campaigns"): its Remove decisions,
 * carried out through the one access-records writer (`lockAndLoadAccess` + `applyAccessPlan` of
 * ./access-records.ts: the user's lock, a re-read under it, the versioned removal and the single sign-on
 * revocation), and its Keep decisions marked. Both are idempotent: an item is done once its `outcome` is set
 * (in the same transaction as its audit row, whose key is fixed per campaign and access record), so a retried
 * or overlapping batch finds it done. An item whose access record is no longer the active version (changed or
 * ended since the snapshot) gets outcome CHANGED and removes nothing.
 */
import type { Prisma } from '../generated/client/client';
import { type AccessWriter, applyAccessPlan, lockAndLoadAccess } from './access-records';

type Tx = Prisma.TransactionClient;

/** The campaign as its audit rows name it. */
export interface ReviewCampaignRef {
  id: number;
  name: string;
  workflowId: string;
}

/** An item of a campaign's decisions, as the audit rows carry it. */
interface DecidedItem {
  id: number;
  accessId: number;
  portalUserId: number;
  roleName: string;
  decision: 'KEEP' | 'REMOVE' | null;
  comment: string | null;
  decidedByUsername: string | null;
  defaulted: boolean;
}

const auditAfter = (campaign: ReviewCampaignRef, item: DecidedItem, extra: Record<string, unknown> = {}) => ({
  accessId: item.accessId,
  itemId: item.id,
  campaignId: campaign.id,
  campaignName: campaign.name,
  roleName: item.roleName,
  decision: item.decision,
  comment: item.comment,
  decidedByUsername: item.decidedByUsername,
  defaulted: item.defaulted,
  ...extra,
});

/**
 * Carries out `portalUserId`'s Remove decisions in `campaign` not done yet: under the user's lock, each item
 * whose record is still active is removed (audited ACCESS_REMOVED_BY_REVIEW, actor the reviewer or the
 * writer for a default, key `access-review:<campaignId>:removed:<accessId>`), the others are CHANGED; the
 * items' outcomes are written in the same transaction. @returns how many were removed and changed.
 */
export async function applyReviewRemovals(
  tx: Tx,
  campaign: ReviewCampaignRef,
  portalUserId: number,
  writer: AccessWriter,
): Promise<{ removed: number; changed: number }> {
  const active = await lockAndLoadAccess(tx, portalUserId);
  // Read under the lock: an overlapping batch that came first has set their outcomes.
  const items: DecidedItem[] = await tx.accessReviewItem.findMany({
    where: { campaignId: campaign.id, portalUserId, decision: 'REMOVE', outcome: null },
    orderBy: { id: 'asc' },
  });
  if (!items.length) return { removed: 0, changed: 0 };
  const held = new Map(active.map((r) => [r.id, r]));
  const toRemove = items.filter((i) => held.has(i.accessId));
  const changed = items.filter((i) => !held.has(i.accessId));
  const changes = toRemove.length
    ? await applyAccessPlan(
        tx,
        portalUserId,
        { creates: [], replaces: [], removals: toRemove.map((i) => held.get(i.accessId)!), stale: [] },
        writer,
      )
    : [];
  const now = new Date();
  if (toRemove.length) {
    await tx.accessReviewItem.updateMany({
      where: { id: { in: toRemove.map((i) => i.id) } },
      data: { outcome: 'REMOVED', appliedAt: now },
    });
  }
  if (changed.length) {
    await tx.accessReviewItem.updateMany({
      where: { id: { in: changed.map((i) => i.id) } },
      data: { outcome: 'CHANGED', appliedAt: now },
    });
  }
  await tx.auditEvent.createMany({
    data: toRemove.map((item) => ({
      actorUsername: (item.defaulted ? null : item.decidedByUsername) ?? writer.username,
      entityType: 'UserAccess',
      entityId: String(portalUserId),
      action: 'ACCESS_REMOVED_BY_REVIEW',
      after: auditAfter(campaign, item, { newId: changes.find((c) => c.priorId === item.accessId)?.newId ?? null }),
      workflowId: campaign.workflowId,
      idempotencyKey: `access-review:${campaign.id}:removed:${item.accessId}`,
    })),
    skipDuplicates: true,
  });
  return { removed: toRemove.length, changed: changed.length };
}

/**
 * Marks up to `limit` Keep items of `campaign` not done yet: KEPT (audited ACCESS_KEPT_BY_REVIEW, key
 * `access-review:<campaignId>:kept:<accessId>`) while their record is active, CHANGED otherwise. Items are
 * claimed FOR UPDATE SKIP LOCKED, so overlapping batches share the work. @returns the counts and whether
 * there may be more.
 */
export async function markReviewKept(
  tx: Tx,
  campaign: ReviewCampaignRef,
  limit: number,
): Promise<{ kept: number; changed: number; more: boolean }> {
  const claimed = await tx.$queryRaw<Array<{ id: number }>>`
    SELECT id FROM "AccessReviewItem"
     WHERE "campaignId" = ${campaign.id} AND decision = 'KEEP' AND outcome IS NULL
     ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
  if (!claimed.length) return { kept: 0, changed: 0, more: false };
  const items: DecidedItem[] = await tx.accessReviewItem.findMany({
    where: { id: { in: claimed.map((c) => c.id) } },
    orderBy: { id: 'asc' },
  });
  const activeIds = new Set(
    (
      await tx.userAccess.findMany({
        where: { id: { in: items.map((i) => i.accessId) }, inactive: false },
        select: { id: true },
      })
    ).map((r) => r.id),
  );
  const kept = items.filter((i) => activeIds.has(i.accessId));
  const changed = items.filter((i) => !activeIds.has(i.accessId));
  const now = new Date();
  for (const [list, outcome] of [
    [kept, 'KEPT'],
    [changed, 'CHANGED'],
  ] as const) {
    if (list.length) {
      await tx.accessReviewItem.updateMany({
        where: { id: { in: list.map((i) => i.id) } },
        data: { outcome, appliedAt: now },
      });
    }
  }
  await tx.auditEvent.createMany({
    data: kept.map((item) => ({
      actorUsername: (item.defaulted ? null : item.decidedByUsername) ?? 'system',
      entityType: 'UserAccess',
      entityId: String(item.portalUserId),
      action: 'ACCESS_KEPT_BY_REVIEW',
      after: auditAfter(campaign, item),
      workflowId: campaign.workflowId,
      idempotencyKey: `access-review:${campaign.id}:kept:${item.accessId}`,
    })),
    skipDuplicates: true,
  });
  return { kept: kept.length, changed: changed.length, more: claimed.length === limit };
}

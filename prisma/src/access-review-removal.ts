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
 * Marks up to `limit` Keep items of `campaign` not done yet, in ONE statement: KEPT (audited
 * ACCESS_KEPT_BY_REVIEW, actor the reviewer or 'system' for a default, key
 * `access-review:<campaignId>:kept:<accessId>`) while their record is active, CHANGED otherwise. Items are
 * claimed FOR UPDATE SKIP LOCKED, so overlapping batches share the work. @returns the counts and whether
 * there may be more.
 */
export async function markReviewKept(
  tx: Tx,
  campaign: ReviewCampaignRef,
  limit: number,
): Promise<{ kept: number; changed: number; more: boolean }> {
  const [row] = await tx.$queryRaw<[{ kept: number; changed: number }]>`
    WITH claimed AS (
      SELECT id FROM "AccessReviewItem"
       WHERE "campaignId" = ${campaign.id} AND decision = 'KEEP' AND outcome IS NULL
       ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED
    ), marked AS (
      UPDATE "AccessReviewItem" i
         SET outcome = (CASE WHEN EXISTS (SELECT 1 FROM "UserAccess" ua WHERE ua.id = i."accessId" AND NOT ua.inactive)
                        THEN 'KEPT' ELSE 'CHANGED' END)::"AccessReviewOutcome",
             "appliedAt" = now()
        FROM claimed c WHERE i.id = c.id
      RETURNING i.*
    ), audited AS (
      INSERT INTO "AuditEvent" ("actorUsername", "entityType", "entityId", action, after, "workflowId", "idempotencyKey")
      SELECT CASE WHEN m.defaulted THEN 'system' ELSE coalesce(m."decidedByUsername", 'system') END,
             'UserAccess', m."portalUserId"::text, 'ACCESS_KEPT_BY_REVIEW',
             jsonb_build_object('accessId', m."accessId", 'itemId', m.id, 'campaignId', m."campaignId",
               'campaignName', ${campaign.name}::text, 'roleName', m."roleName", 'decision', m.decision,
               'comment', m.comment, 'decidedByUsername', m."decidedByUsername", 'defaulted', m.defaulted),
             ${campaign.workflowId}::text, 'access-review:' || m."campaignId" || ':kept:' || m."accessId"
        FROM marked m WHERE m.outcome = 'KEPT'
      ON CONFLICT ("idempotencyKey") DO NOTHING
      RETURNING 1
    )
    SELECT (count(*) FILTER (WHERE outcome = 'KEPT'))::int AS kept,
           (count(*) FILTER (WHERE outcome = 'CHANGED'))::int AS changed,
           (SELECT count(*) FROM audited)::int AS audited
      FROM marked`;
  return { kept: row.kept, changed: row.changed, more: row.kept + row.changed === limit };
}

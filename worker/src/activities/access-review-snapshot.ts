/**
 * The snapshot and the opening of an access review campaign (issue 25 "it snapshots the access records in
 * scope into review items (PostgreSQL, in batches)"): `snapshotAccessReviewBatch` stores a batch of items in
 * ONE statement (INSERT … SELECT the active UserAccess rows in scope above the last id, ON CONFLICT DO
 * NOTHING: a retried batch stores nothing twice); `openAccessReview` opens the campaign once.
 */
import { AccessReviewScopeSchema } from '@portal/contract';
import { type PrismaClient, recordLaosSql } from '@portal/db';
import type {
  AccessReviewActivities,
  OpenCampaignInput,
  OpenCampaignResult,
  SnapshotBatchInput,
  SnapshotBatchResult,
} from '@portal/workflows';
import { CAMPAIGN_TX, auditCampaign, campaignOf } from './access-review-audit';

type SnapshotActivities = Pick<AccessReviewActivities, 'snapshotAccessReviewBatch' | 'openAccessReview'>;

export function createAccessReviewSnapshotActivities(prisma: PrismaClient): SnapshotActivities {
  /**
   * Scope (contract AccessReviewScopeSchema): each non-empty list narrows, within a list any matches; 'by LAOs'
   * matches the record's LAOs (`recordLaosSql`: its LAOs and those of its AOs). Item pools (`reviewLaoIds`): an
   * LAO_STAFF campaign's item carries the record's LAOs (none: User Support), a USER_SUPPORT campaign's none.
   */
  async function snapshotAccessReviewBatch(input: SnapshotBatchInput): Promise<SnapshotBatchResult> {
    const campaign = await campaignOf(prisma, input.campaignId);
    const scope = AccessReviewScopeSchema.parse(campaign.scope ?? {});
    const byLao = campaign.reviewers === 'LAO_STAFF';
    const [row] = await prisma.$queryRaw<[{ picked: number; stored: number; lastId: number | null }]>`
      WITH picked AS (
        SELECT ua.id, ua."portalUserId", ua."roleName", ua."siteCodes", ua."laoIds", ua."studyNames",
               ua."systemAccessIds", ua."accessEndDate", u.username, u."firstName", u."lastName", u.email, l.laos
          FROM "UserAccess" ua JOIN "PortalUser" u ON u.id = ua."portalUserId"
         CROSS JOIN LATERAL (SELECT ${recordLaosSql('ua')} AS laos) l
         WHERE ua.inactive = false AND ua.id > ${input.afterId}
           AND (cardinality(${scope.systemAccessIds}::int4[]) = 0 OR ua."systemAccessIds" && ${scope.systemAccessIds}::int4[])
           AND (cardinality(${scope.roleNames}::text[]) = 0 OR ua."roleName" = ANY(${scope.roleNames}::text[]))
           AND (cardinality(${scope.laoIds}::text[]) = 0 OR l.laos && ${scope.laoIds}::text[])
         ORDER BY ua.id
         LIMIT ${input.limit}
      ), stored AS (
        INSERT INTO "AccessReviewItem" ("campaignId", "accessId", "portalUserId", username, "firstName", "lastName",
               email, "roleName", "siteCodes", "laoIds", "studyNames", "systemAccessIds", "accessEndDate", "reviewLaoIds")
        SELECT ${input.campaignId}, id, "portalUserId", username, "firstName", "lastName", email, "roleName",
               "siteCodes", "laoIds", "studyNames", "systemAccessIds", "accessEndDate",
               CASE WHEN ${byLao} THEN laos ELSE '{}'::text[] END
          FROM picked
        ON CONFLICT ("campaignId", "accessId") DO NOTHING
        RETURNING 1
      )
      SELECT (SELECT count(*) FROM picked)::int AS picked, (SELECT count(*) FROM stored)::int AS stored,
             (SELECT max(id) FROM picked) AS "lastId"`;
    return { picked: row.picked, stored: row.stored, lastId: row.lastId };
  }

  /**
   * STARTING → OPEN with the workflow's times and the items counted, audited OPENED; a retry finds it open.
   * The items were just bulk-loaded: the planner's statistics are refreshed first (ANALYZE samples a bounded
   * number of rows), so the first reviewer pages are read in index order rather than by sorting the campaign.
   */
  async function openAccessReview(input: OpenCampaignInput): Promise<OpenCampaignResult> {
    // SKIP_LOCKED: another campaign's VACUUM of the items may run for minutes, and ANALYZE would queue behind
    // it; skipped, the statistics are autovacuum's, and the first pages may be sorted rather than walked.
    await prisma.$executeRaw`ANALYZE (SKIP_LOCKED) "AccessReviewItem"`;
    // VACUUM marks the new pages all-visible, so a page's skipped rows are judged from the index alone. It may
    // take long on a large table and PostgreSQL's autovacuum does it anyway: the campaign does not wait for it,
    // nor does it queue behind one already running.
    prisma.$executeRaw`VACUUM (SKIP_LOCKED) "AccessReviewItem"`.catch((err: unknown) => {
      console.warn(`access review ${input.campaignId}: VACUUM of the items left to autovacuum: ${String(err)}`);
    });
    return prisma.$transaction(async (tx) => {
      const itemsTotal = await tx.accessReviewItem.count({ where: { campaignId: input.campaignId } });
      const opened = await tx.accessReviewCampaign.updateMany({
        where: { id: input.campaignId, status: 'STARTING' },
        data: { status: 'OPEN', openedAt: new Date(input.openedAt), deadline: new Date(input.deadline), itemsTotal },
      });
      if (opened.count) {
        await auditCampaign(tx, input.campaignId, 'OPENED', {
          itemsTotal,
          openedAt: input.openedAt,
          deadline: input.deadline,
        });
      }
      const campaign = await campaignOf(tx, input.campaignId);
      return {
        status: campaign.status === 'CANCELLED' ? 'CANCELLED' : 'OPEN',
        itemsTotal: campaign.itemsTotal,
        openedAt: (campaign.openedAt ?? new Date(input.openedAt)).toISOString(),
        deadline: (campaign.deadline ?? new Date(input.deadline)).toISOString(),
      };
    }, CAMPAIGN_TX);
  }

  return { snapshotAccessReviewBatch, openAccessReview };
}

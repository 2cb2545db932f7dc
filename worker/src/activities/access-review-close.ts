/**
 * The close and the cancel of an access review campaign (issue 25: "closes at its deadline, applies the default
 * to undecided items, removes every access the reviewers decided to remove through the one access-records
 * writer … and ends with a summary. An ADMIN may … cancel it (nothing removed)"). Each step is idempotent:
 * - `beginAccessReviewClose`: OPEN → CLOSING with `UPDATE … WHERE status = 'OPEN'`, whose row lock waits for
 *   the decisions in flight (they read the row FOR SHARE), then the default for every undecided item; a
 *   person's signed close (CAMPAIGN_CLOSE) takes its ticket and writes its Signature in that transaction;
 * - `applyAccessReviewRemovals`: person by person (prisma `applyReviewRemovals`); one person's failure does not
 *   stop the others, and a failure while PostgreSQL is away fails the batch, which the workflow retries until
 *   it is back;
 * - `markAccessReviewKept`, `finishAccessReview` (counters, CLOSED, the summary), `cancelAccessReview`.
 */
import { heartbeat, log } from '@temporalio/activity';
import {
  ADMIN_SIGNED_ENTITIES,
  type PrismaClient,
  applyReviewRemovals,
  campaignCloseContent,
  markReviewKept,
  takeSignatureTicket,
  writeSignature,
} from '@portal/db';
import type {
  AccessReviewActivities,
  BeginCloseInput,
  FinishCampaignInput,
  RemovalBatchInput,
  RemovalBatchResult,
} from '@portal/workflows';
import { CAMPAIGN_TX, auditCampaign, campaignOf } from './access-review-audit';

type CloseActivities = Pick<
  AccessReviewActivities,
  | 'beginAccessReviewClose'
  | 'applyAccessReviewRemovals'
  | 'markAccessReviewKept'
  | 'finishAccessReview'
  | 'cancelAccessReview'
>;

/** Who the campaign writes access records as (their lastModifiedBy). */
export const ACCESS_REVIEW_WRITER = { username: 'system' } as const;

/** The portal user id of the person who closes (their username), or null when none has it. */
async function signerOf(tx: Pick<PrismaClient, 'portalUser'>, username: string): Promise<number | null> {
  const user = await tx.portalUser.findFirst({ where: { username }, select: { id: true } });
  return user?.id ?? null;
}

export function createAccessReviewCloseActivities(prisma: PrismaClient): CloseActivities {
  /** True when PostgreSQL answers: a failure then is the person's own, not the database's absence. */
  const databaseAnswers = async () => {
    try {
      await prisma.$queryRaw`SELECT 1`;
      return true;
    } catch {
      return false;
    }
  };

  async function beginAccessReviewClose(input: BeginCloseInput): Promise<{ defaulted: number }> {
    return prisma.$transaction(async (tx) => {
      const closing = await tx.$executeRaw`
        UPDATE "AccessReviewCampaign" SET status = 'CLOSING', "closedByUsername" = ${input.closedByUsername.slice(0, 64)}
         WHERE id = ${input.campaignId} AND status = 'OPEN'`;
      // The ticket was checked by the API when the close was sent and is used only here, once (a retried attempt
      // finds the campaign CLOSING and writes nothing again). The close was already accepted by the workflow:
      // a ticket that cannot be taken any more (expired meanwhile) does not stop it, the audit row says so.
      const signer = input.signature ? await signerOf(tx, input.closedByUsername) : null;
      const ticket =
        closing && input.signature && signer !== null
          ? await takeSignatureTicket(tx, input.signature.ticketId, signer)
          : null;
      if (closing) {
        const unsigned = input.signature && !ticket ? { signatureNotTaken: true } : {};
        await auditCampaign(
          tx,
          input.campaignId,
          'CLOSING',
          { by: input.closedByUsername, ...unsigned },
          input.closedByUsername,
        );
      }
      const campaign = await campaignOf(tx, input.campaignId);
      if (ticket) {
        await writeSignature(tx, ticket, {
          entityType: ADMIN_SIGNED_ENTITIES.campaign,
          entityId: campaign.id,
          content: campaignCloseContent(campaign.id, campaign.name, campaign.closedByUsername),
        });
      }
      if (campaign.status !== 'CLOSING') return { defaulted: 0 };
      const defaulted = await tx.$executeRaw`
        UPDATE "AccessReviewItem" SET decision = ${campaign.defaultDecision}::"AccessReviewDecision", defaulted = true
         WHERE "campaignId" = ${input.campaignId} AND decision IS NULL`;
      return { defaulted };
    }, CAMPAIGN_TX);
  }

  async function applyAccessReviewRemovals(input: RemovalBatchInput): Promise<RemovalBatchResult> {
    const campaign = await campaignOf(prisma, input.campaignId);
    const due = await prisma.accessReviewItem.findMany({
      where: {
        campaignId: input.campaignId,
        decision: 'REMOVE',
        outcome: null,
        ...(input.skipUserIds.length ? { portalUserId: { notIn: input.skipUserIds } } : {}),
      },
      select: { portalUserId: true },
      orderBy: [{ portalUserId: 'asc' }, { id: 'asc' }],
      take: input.limit,
    });
    const result: RemovalBatchResult = { removed: 0, changed: 0, failedUserIds: [], more: due.length === input.limit };
    const removeFor = (portalUserId: number) =>
      prisma.$transaction((tx) => applyReviewRemovals(tx, campaign, portalUserId, ACCESS_REVIEW_WRITER), {
        timeout: 20_000,
        maxWait: 10_000,
      });
    for (const portalUserId of new Set(due.map((d) => d.portalUserId))) {
      heartbeat(portalUserId);
      let done: { removed: number; changed: number } | undefined;
      for (let attempt = 1; !done; attempt += 1) {
        try {
          done = await removeFor(portalUserId);
        } catch (err) {
          // PostgreSQL away: the whole batch fails and is retried (what was done is found done).
          if (!(await databaseAnswers())) throw err;
          if (attempt >= 2) {
            log.warn('access review: removal failed', {
              campaignId: input.campaignId,
              portalUserId,
              error: String(err),
            });
            result.failedUserIds.push(portalUserId);
            break;
          }
        }
      }
      if (done) {
        result.removed += done.removed;
        result.changed += done.changed;
      }
    }
    return result;
  }

  async function markAccessReviewKept(input: { campaignId: number; limit: number }) {
    const campaign = await campaignOf(prisma, input.campaignId);
    return prisma.$transaction((tx) => markReviewKept(tx, campaign, input.limit), CAMPAIGN_TX);
  }

  async function finishAccessReview(input: FinishCampaignInput) {
    return prisma.$transaction(async (tx) => {
      const byOutcome = await tx.accessReviewItem.groupBy({
        by: ['outcome'],
        where: { campaignId: input.campaignId },
        _count: { _all: true },
      });
      const count = (o: 'KEPT' | 'REMOVED' | 'CHANGED') => byOutcome.find((g) => g.outcome === o)?._count._all ?? 0;
      const counts = { kept: count('KEPT'), removed: count('REMOVED'), changed: count('CHANGED') };
      const closed = await tx.accessReviewCampaign.updateMany({
        where: { id: input.campaignId, status: 'CLOSING' },
        data: {
          status: 'CLOSED',
          closedAt: new Date(),
          removedCount: counts.removed,
          keptCount: counts.kept,
          changedCount: counts.changed,
        },
      });
      const campaign = await campaignOf(tx, input.campaignId);
      if (closed.count) {
        // Remove decisions left in place (their person's removal failed): one row each, for the record.
        const left = await tx.accessReviewItem.findMany({
          where: { campaignId: input.campaignId, decision: 'REMOVE', outcome: null },
        });
        await tx.auditEvent.createMany({
          data: left.map((item) => ({
            actorUsername: 'system',
            entityType: 'UserAccess',
            entityId: String(item.portalUserId),
            action: 'ACCESS_REVIEW_REMOVAL_FAILED',
            after: { accessId: item.accessId, itemId: item.id, campaignId: campaign.id, campaignName: campaign.name },
            workflowId: campaign.workflowId,
            idempotencyKey: `access-review:${campaign.id}:removal-failed:${item.accessId}`,
          })),
          skipDuplicates: true,
        });
        await auditCampaign(tx, input.campaignId, 'CLOSED', {
          status: 'CLOSED',
          itemsTotal: campaign.itemsTotal,
          ...counts,
          failed: input.failed,
          mailsFailed: input.mailsFailed,
        });
      }
      return { itemsTotal: campaign.itemsTotal, ...counts };
    }, CAMPAIGN_TX);
  }

  async function cancelAccessReview(input: BeginCloseInput) {
    return prisma.$transaction(async (tx) => {
      const cancelled = await tx.accessReviewCampaign.updateMany({
        where: { id: input.campaignId, status: { in: ['STARTING', 'OPEN'] } },
        data: { status: 'CANCELLED', closedAt: new Date(), closedByUsername: input.closedByUsername.slice(0, 64) },
      });
      if (cancelled.count) {
        await auditCampaign(tx, input.campaignId, 'CANCELLED', { by: input.closedByUsername }, input.closedByUsername);
      }
      const campaign = await campaignOf(tx, input.campaignId);
      return { status: campaign.status, itemsTotal: campaign.itemsTotal };
    }, CAMPAIGN_TX);
  }

  return {
    beginAccessReviewClose,
    applyAccessReviewRemovals,
    markAccessReviewKept,
    finishAccessReview,
    cancelAccessReview,
  };
}

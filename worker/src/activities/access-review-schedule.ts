/**
 * The filing of a recurring access review's campaign (issue 25 "Once, or recurring on a Temporal Schedule"),
 * for `accessReviewScheduledWorkflow`: one AccessReviewCampaign row per scheduled run, from the
 * AccessReviewSchedule row, with its CREATED audit row keyed `access-review-schedule:<run's workflow id>` in
 * the same transaction, so a retried filing finds that row and answers the same campaign; then the mark of
 * its workflow's start (rule 1).
 */
import { type Prisma, type PrismaClient, recordAudit } from '@portal/db';
import {
  type AccessReviewInput,
  type AccessReviewScheduleActivities,
  type FiledScheduledCampaign,
  accessReviewInputOf,
  accessReviewStart,
  accessReviewWorkflowId,
} from '@portal/workflows';
import { CAMPAIGN_TX } from './access-review-audit';

/**
 * `mailDeadline` (MAIL_DEADLINE): how long the campaigns filed here retry their mails, as the API's own starts
 * do; absent, the workflow's default.
 */
export function createAccessReviewScheduleActivities(
  prisma: PrismaClient,
  mailDeadline?: string,
): AccessReviewScheduleActivities {
  async function fileScheduledAccessReview(input: {
    scheduleId: number;
    runKey: string;
    duration?: string;
    reminderEvery?: string | null;
  }): Promise<FiledScheduledCampaign | null> {
    const key = `access-review-schedule:${input.runKey}`.slice(0, 128);
    const campaign = await prisma.$transaction(async (tx) => {
      const filed = await tx.auditEvent.findUnique({ where: { idempotencyKey: key } });
      if (filed) return tx.accessReviewCampaign.findUnique({ where: { id: Number(filed.entityId) } });
      const schedule = await tx.accessReviewSchedule.findUnique({ where: { id: input.scheduleId } });
      if (!schedule || schedule.inactive) return null;
      const [{ id }] = await tx.$queryRaw<[{ id: number }]>`
        SELECT nextval(pg_get_serial_sequence('"AccessReviewCampaign"', 'id'))::int AS id`;
      const creator = await tx.portalUser.findUnique({ where: { id: schedule.createdByUserId } });
      const created = await tx.accessReviewCampaign.create({
        data: {
          id,
          workflowId: accessReviewWorkflowId(id),
          name: schedule.name,
          scope: schedule.scope as Prisma.InputJsonValue,
          reviewers: schedule.reviewers,
          durationDays: schedule.durationDays,
          reminderEveryDays: schedule.reminderEveryDays,
          defaultDecision: schedule.defaultDecision,
          scheduleId: schedule.id,
          createdByUserId: schedule.createdByUserId,
          createdByUsername: creator?.username ?? 'system',
        },
      });
      // A concurrent attempt of the same run fails here on the key and rolls its campaign back.
      await recordAudit(
        tx,
        { userId: schedule.createdByUserId, username: created.createdByUsername },
        {
          entityType: 'AccessReview',
          entityId: id,
          action: 'CREATED',
          after: {
            name: created.name,
            scope: schedule.scope,
            reviewers: created.reviewers,
            durationDays: created.durationDays,
            reminderEveryDays: created.reminderEveryDays,
            defaultDecision: created.defaultDecision,
            scheduleId: schedule.id,
            run: input.runKey,
          },
          workflowId: created.workflowId,
          idempotencyKey: key,
        },
      );
      return created;
    }, CAMPAIGN_TX);
    if (!campaign) return null;
    const opts = {
      name: campaign.name,
      durationDays: campaign.durationDays,
      reminderEveryDays: campaign.reminderEveryDays,
      createdByLabel: `recurring access review #${input.scheduleId}`,
      ...(mailDeadline !== undefined && { mailDeadline }),
    };
    const campaignInput: AccessReviewInput = {
      ...accessReviewInputOf(campaign.id, opts),
      ...(input.duration !== undefined && { duration: input.duration }),
      ...(input.reminderEvery !== undefined && { reminderEvery: input.reminderEvery }),
    };
    const start = accessReviewStart(campaign.id, opts, campaignInput);
    return {
      campaignId: campaign.id,
      workflowId: start.workflowId,
      workflowType: start.workflowType,
      args: start.args,
      searchAttributes: start.searchAttributes.map((p) => ({
        key: { name: p.key.name, type: p.key.type },
        value: p.value,
      })),
      summary: start.summary,
      details: start.details,
    };
  }

  async function markAccessReviewStarted(input: { campaignId: number }): Promise<void> {
    await prisma.accessReviewCampaign.updateMany({
      where: { id: input.campaignId, workflowStartedAt: null },
      data: { workflowStartedAt: new Date() },
    });
  }

  return { fileScheduledAccessReview, markAccessReviewStarted };
}

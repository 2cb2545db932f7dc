/**
 * The audit rows of an access review campaign (issue 25; entityType 'AccessReview', entityId the campaign id):
 * CREATED, OPENED, CLOSING, CLOSED, CANCELLED, MAIL_SENT/MAIL_FAILED of reviewer mails. Each is keyed
 * `access-review:<campaignId>:<what>`, so a retried activity writes it once. Shared by the campaign's activities.
 */
import { ApplicationFailure } from '@temporalio/activity';
import type { Prisma } from '@portal/db';
import { ACCESS_REVIEW_SYSTEM_ACTOR, accessReviewWorkflowId } from '@portal/workflows';

type Tx = Prisma.TransactionClient;

/** The ApplicationFailure type when the campaign row is gone (not retried: nothing can make it come back). */
export const ACCESS_REVIEW_NOT_FOUND = 'ACCESS_REVIEW_NOT_FOUND';

/** Transactions of the campaign's writes: long enough for a default given to 100,000 items. */
export const CAMPAIGN_TX = { timeout: 60_000, maxWait: 10_000 } as const;

/** Writes the campaign's audit row `action` once (key `access-review:<campaignId>:<action, lower case>`). */
export async function auditCampaign(
  tx: Tx,
  campaignId: number,
  action: string,
  after: Prisma.InputJsonValue,
  actorUsername: string = ACCESS_REVIEW_SYSTEM_ACTOR,
): Promise<void> {
  await tx.auditEvent.createMany({
    data: [
      {
        actorUsername: actorUsername.slice(0, 64),
        entityType: 'AccessReview',
        entityId: String(campaignId),
        action,
        after,
        workflowId: accessReviewWorkflowId(campaignId),
        idempotencyKey: `access-review:${campaignId}:${action.toLowerCase()}`,
      },
    ],
    skipDuplicates: true,
  });
}

/** The campaign row. @throws ApplicationFailure ACCESS_REVIEW_NOT_FOUND (non-retryable) when it is gone. */
export async function campaignOf(tx: Pick<Tx, 'accessReviewCampaign'>, campaignId: number) {
  const campaign = await tx.accessReviewCampaign.findUnique({ where: { id: campaignId } });
  if (!campaign) {
    throw ApplicationFailure.nonRetryable(`access review campaign ${campaignId} not found`, ACCESS_REVIEW_NOT_FOUND);
  }
  return campaign;
}

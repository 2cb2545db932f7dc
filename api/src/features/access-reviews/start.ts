/**
 * Starting a one-off access review campaign (issue 25; POST /rest/secure/system_mgmt/access_reviews): the scope
 * checked (scope.ts), then the campaign row and its audit row (AccessReview CREATED) committed under the
 * (ACCESS_REVIEW, ADMIN) filing lock and `access-review-<id>` started through the one commit-then-start of every
 * kind (`fileAndStart`, `accessReviewStart`); a start that fails after the commit is left to the worker's
 * reconciler (the row's workflowStartedAt stays null), so the answer is the STARTING campaign either way.
 */
import { ACCESS_REVIEW_MESSAGES, type AccessReviewCampaign, type CreateAccessReviewBody } from '@portal/contract';
import { accessReviewStart, accessReviewWorkflowId } from '@portal/workflows';
import type { AuthContext } from '../../auth/guard';
import type { Deps } from '../../deps';
import { HttpError, unavailable } from '../../http/errors';
import { recordAudit } from '../../shared/audit-log';
import { fileAndStart } from '../../shared/filing';
import { temporalUiOf } from '../../shared/views';
import { checkScope, definitionOf } from './scope';
import { loadCampaignView } from './views';

/**
 * Files and starts one campaign. @returns its view.
 * @throws HttpError 422 (unknown scope names), 503 (the filing transaction failed).
 */
export async function startCampaign(
  deps: Deps,
  actor: AuthContext,
  body: CreateAccessReviewBody,
): Promise<AccessReviewCampaign> {
  const { prisma } = deps;
  await checkScope(prisma, body.scope);
  const createdByLabel = `${actor.firstName} ${actor.lastName} (${actor.username})`;
  let filed;
  try {
    filed = await fileAndStart(deps, {
      // One campaign filing per ADMIN at a time: a double click files two campaigns, never a torn one.
      lock: { kind: 'ACCESS_REVIEW', id: actor.userId },
      start: (id) =>
        accessReviewStart(id, {
          name: body.name,
          durationDays: body.durationDays,
          reminderEveryDays: body.reminderEveryDays,
          createdByLabel,
          mailDeadline: deps.cfg.MAIL_DEADLINE,
        }),
      markStarted: async (id) => {
        await prisma.accessReviewCampaign.update({ where: { id }, data: { workflowStartedAt: new Date() } });
      },
      insert: async (tx) => {
        const [{ id }] = await tx.$queryRaw<
          [{ id: bigint }]
        >`SELECT nextval(pg_get_serial_sequence('"AccessReviewCampaign"', 'id')) AS id`;
        const campaignId = Number(id);
        const workflowId = accessReviewWorkflowId(campaignId);
        const definition = definitionOf(body);
        await tx.accessReviewCampaign.create({
          data: {
            id: campaignId,
            workflowId,
            ...definition,
            createdByUserId: actor.userId,
            createdByUsername: actor.username,
          },
        });
        await recordAudit(tx, actor, {
          entityType: 'AccessReview',
          entityId: campaignId,
          action: 'CREATED',
          after: definition,
          workflowId,
          idempotencyKey: `access-review:${campaignId}:created`,
        });
        return { requestId: campaignId, result: campaignId };
      },
    });
  } catch (err) {
    // filing.ts words its 503 for requests; a campaign's says what failed here.
    if (err instanceof HttpError && err.statusCode === 503)
      throw unavailable(ACCESS_REVIEW_MESSAGES.saveCampaignFailed);
    throw err;
  }
  const campaign = await prisma.accessReviewCampaign.findUniqueOrThrow({ where: { id: filed.requestId } });
  return loadCampaignView(prisma, campaign, temporalUiOf(deps.cfg));
}

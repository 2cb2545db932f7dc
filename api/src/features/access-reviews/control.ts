/**
 * An ADMIN's early close or cancel of a campaign (issue 25 "An ADMIN may close a campaign early or cancel it
 * (nothing removed)"; POST .../access_reviews/{id}/close and /cancel): the workflow's update
 * (`closeAccessReviewUpdate` / `cancelAccessReviewUpdate` with the ADMIN's username), within
 * REVIEW_DEADLINE_MS. The workflow then closes (status CLOSING, the default and removals, CLOSED) or cancels on its
 * own; the answer is the campaign as stored right after the update was accepted.
 * - a refusal of the update's validator (already closing, still snapshotting): 422 globalErrors [its message];
 * - a campaign no longer open (or whose workflow is gone): 422 [alreadyClosing];
 * - Temporal unreachable, or the workflow not answering in time: 503 with what to do.
 * With SIGNATURES=on a close is signed CAMPAIGN_CLOSE (docs/decisions.md "Electronic signatures"): the checked
 * ticket's row id travels in the update's arguments, and the close's first activity takes it and writes the
 * Signature with OPEN → CLOSING. A cancel removes nothing and is not signed.
 */
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { ACCESS_REVIEW_MESSAGES, type AccessReviewCampaign, type SignatureRef } from '@portal/contract';
import { cancelAccessReviewUpdate, closeAccessReviewUpdate } from '@portal/workflows';
import type { AuthContext } from '../../auth/guard';
import type { Deps } from '../../deps';
import { type HttpError, notFound, unavailable, unprocessable } from '../../http/errors';
import { temporalUiOf } from '../../shared/views';
import { loadCampaignView } from './views';

/** The 503 text when the workflow service or the campaign's workflow does not answer. */
export const CAMPAIGN_UNREACHABLE =
  'The workflow service is not answering: the campaign was not changed. Please try again in a few minutes.';

const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err));

const UPDATES = { close: closeAccessReviewUpdate, cancel: cancelAccessReviewUpdate } as const;

function mapUpdateError(err: unknown, action: keyof typeof UPDATES, workflowId: string): HttpError {
  if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) {
    return unprocessable({}, [err.cause.message]);
  }
  if (err instanceof WorkflowNotFoundError) return unprocessable({}, [ACCESS_REVIEW_MESSAGES.alreadyClosing]);
  console.error(`access review: the ${action} update of ${workflowId} failed: ${describe(err)}`);
  return unavailable(CAMPAIGN_UNREACHABLE);
}

/**
 * Sends the close or cancel update of campaign `id`; `signature`: the close's checked ticket (SIGNATURES=on).
 * @returns the campaign's view. @throws HttpError 404 (no such campaign), 422 (refused), 503 (Temporal unreachable).
 */
export async function controlCampaign(
  deps: Deps,
  actor: AuthContext,
  id: number,
  action: keyof typeof UPDATES,
  signature?: SignatureRef,
): Promise<AccessReviewCampaign> {
  const { prisma } = deps;
  const campaign = await prisma.accessReviewCampaign.findUnique({ where: { id } });
  if (!campaign) throw notFound(ACCESS_REVIEW_MESSAGES.loadCampaign);
  if (campaign.status !== 'OPEN' && campaign.status !== 'STARTING') {
    throw unprocessable({}, [ACCESS_REVIEW_MESSAGES.alreadyClosing]);
  }
  const handle = deps.temporal.workflow.getHandle(campaign.workflowId);
  let accepted: { status: 'CLOSING' | 'CANCELLED' };
  try {
    accepted = await deps.temporal.withDeadline(Date.now() + deps.cfg.REVIEW_DEADLINE_MS, () =>
      handle.executeUpdate(UPDATES[action], {
        args: [{ username: actor.username, ...(signature ? { signature } : {}) }],
      }),
    );
  } catch (err) {
    throw mapUpdateError(err, action, campaign.workflowId);
  }
  const after = await prisma.accessReviewCampaign.findUniqueOrThrow({ where: { id } });
  const view = await loadCampaignView(prisma, after, temporalUiOf(deps.cfg));
  // The workflow stores CLOSING or CANCELLED in its next step: until then the row still reads as before.
  const stale = after.status === 'OPEN' || after.status === 'STARTING';
  return stale ? { ...view, status: accepted.status } : view;
}

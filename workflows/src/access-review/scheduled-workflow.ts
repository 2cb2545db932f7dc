/**
 * The scheduled workflow of a recurring access review (issue 25 "Once, or recurring on a Temporal Schedule"):
 * the Temporal Schedule `access-review-schedule-<id>` runs it every `everyDays`; it files one campaign row from
 * the AccessReviewSchedule row (once per scheduled run, whatever the retries), starts that campaign's workflow
 * `access-review-<id>` as a child that outlives it (parentClosePolicy ABANDON), and marks the row started
 * (rule 1: otherwise the reconciler starts it). An inactive schedule files nothing.
 */
import { ParentClosePolicy, proxyActivities, startChild, workflowInfo } from '@temporalio/workflow';
import { type SearchAttributePair, WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { AccessReviewScheduleActivities } from './activities';
import type { AccessReviewScheduledInput } from './types';

const { fileScheduledAccessReview, markAccessReviewStarted } = proxyActivities<AccessReviewScheduleActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/** @returns the campaign filed by this run, or null when the schedule is inactive or gone. */
export async function accessReviewScheduledWorkflow(
  input: AccessReviewScheduledInput,
): Promise<{ campaignId: number | null }> {
  const filed = await fileScheduledAccessReview({
    scheduleId: input.scheduleId,
    runKey: workflowInfo().workflowId,
    duration: input.duration,
    reminderEvery: input.reminderEvery,
  });
  if (!filed) return { campaignId: null };
  try {
    await startChild(filed.workflowType, {
      workflowId: filed.workflowId,
      args: filed.args,
      typedSearchAttributes: filed.searchAttributes as SearchAttributePair[],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      staticSummary: filed.summary,
      staticDetails: filed.details,
    });
  } catch (err) {
    // Started already (by the reconciler, which found the row unmarked): that run is the campaign's.
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  await markAccessReviewStarted({ campaignId: filed.campaignId });
  return { campaignId: filed.campaignId };
}

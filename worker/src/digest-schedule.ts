/**
 * Creates or updates the Temporal Schedule of the reviewers' digest (REQUEST-LIFECYCLE.md "Reminders"):
 * every `every`, `reviewerDigestWorkflow` lists what waited longer than `waitingLongerThan` and mails `to`.
 * Idempotent: every worker start converges the schedule on its configuration.
 */
import type { Client } from '@temporalio/client';
import { type DigestInput, REVIEWER_DIGEST_SCHEDULE_ID, REVIEWER_DIGEST_WORKFLOW_TYPE } from '@portal/workflows';
import { upsertIntervalSchedule } from '@portal/workflows';

export interface DigestScheduleOptions extends DigestInput {
  /** Temporal duration between runs, e.g. '1 day'. */
  every: string;
  taskQueue: string;
  scheduleId?: string;
}

export async function ensureReviewerDigestSchedule(client: Client, opts: DigestScheduleOptions): Promise<void> {
  const scheduleId = opts.scheduleId ?? REVIEWER_DIGEST_SCHEDULE_ID;
  await upsertIntervalSchedule(client, scheduleId, opts.every, {
    type: 'startWorkflow',
    workflowType: REVIEWER_DIGEST_WORKFLOW_TYPE,
    workflowId: `${scheduleId}-run`,
    taskQueue: opts.taskQueue,
    args: [{ waitingLongerThan: opts.waitingLongerThan, to: opts.to } satisfies DigestInput],
    staticSummary: `Reviewers' digest: requests waiting longer than ${opts.waitingLongerThan}, mailed to ${opts.to}`,
  });
}

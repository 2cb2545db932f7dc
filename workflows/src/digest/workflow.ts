/** One run of the reviewers' digest (see ./types): a single idempotent activity. */
import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import { msToNumber } from '@temporalio/common/lib/time';
import { mailActivityOptions } from '../lifecycle/lifecycle';
import type { DigestActivities, DigestInput } from './types';

const { sendReviewerDigest } = proxyActivities<DigestActivities>(mailActivityOptions('6 hours'));

export async function reviewerDigestWorkflow(input: DigestInput): Promise<{ listed: number }> {
  return sendReviewerDigest({
    waitingLongerThanMs: msToNumber(input.waitingLongerThan),
    to: input.to,
    runKey: workflowInfo().workflowId,
  });
}

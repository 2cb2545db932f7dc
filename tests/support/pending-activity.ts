/**
 * What Temporal knows of a workflow's running activity (its pending activity): the attempt it is on and the
 * last attempt's failure, for fault tests that wait until a dependency's outage has failed some attempts.
 */
import type { WorkflowHandle } from '@temporalio/client';

export interface PendingActivity {
  /** The attempt running or scheduled next, from 1. */
  attempt: number;
  /** The last failed attempt's message, if any failed. */
  lastFailure?: string;
}

/** The pending activity `activityType` of the workflow, or undefined when none of that type is pending. */
export async function pendingActivity(
  handle: WorkflowHandle,
  activityType: string,
): Promise<PendingActivity | undefined> {
  const { raw } = await handle.describe();
  const found = raw.pendingActivities?.find((a) => a.activityType?.name === activityType);
  if (!found) return undefined;
  return { attempt: found.attempt ?? 1, lastFailure: found.lastFailure?.message ?? undefined };
}

/**
 * Creates or updates the Temporal Schedule of the access expiry (issue 25 "Time-bound access"): every `every`
 * (ACCESS_EXPIRY_EVERY), `accessExpiryWorkflow` removes the access records past their end date and sends the
 * notices. Idempotent: every worker start converges the schedule on its configuration.
 */
import type { Client } from '@temporalio/client';
import { ACCESS_EXPIRY_SCHEDULE_ID, ACCESS_EXPIRY_WORKFLOW_TYPE, type AccessExpiryInput } from '@portal/workflows';
import { upsertIntervalSchedule } from '@portal/workflows';

export interface AccessExpiryScheduleOptions {
  /** Temporal duration between runs, e.g. '15 minutes'. */
  every: string;
  timeZone: string;
  noticeDays: number;
  taskQueue: string;
  scheduleId?: string;
}

export async function ensureAccessExpirySchedule(client: Client, opts: AccessExpiryScheduleOptions): Promise<void> {
  const scheduleId = opts.scheduleId ?? ACCESS_EXPIRY_SCHEDULE_ID;
  await upsertIntervalSchedule(client, scheduleId, opts.every, {
    type: 'startWorkflow',
    workflowType: ACCESS_EXPIRY_WORKFLOW_TYPE,
    workflowId: `${scheduleId}-run`,
    taskQueue: opts.taskQueue,
    args: [{ timeZone: opts.timeZone, noticeDays: opts.noticeDays } satisfies AccessExpiryInput],
    staticSummary: `Access expiry: removes access past its end date (${opts.timeZone}), notices ${opts.noticeDays} day(s) ahead`,
  });
}

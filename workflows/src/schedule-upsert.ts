/**
 * Creates a Temporal Schedule that runs `action` every `every`, or converges an existing one on them (the
 * schedules the worker owns: the reviewers' digest, the access expiry, the audit seal; and the provisioning
 * reconciliations, which the API converges on a connection's save and the worker at its start). Idempotent:
 * every worker start calls it. A run still going when the next is due is not doubled (overlap SKIP); missed runs
 * catch up within an hour. Client-side only: not workflow code.
 */
import {
  type Client,
  ScheduleAlreadyRunning,
  type ScheduleOptionsAction,
  ScheduleOverlapPolicy,
} from '@temporalio/client';

/** @throws the client's error when Temporal fails. */
export async function upsertIntervalSchedule(
  client: Client,
  scheduleId: string,
  every: string,
  action: ScheduleOptionsAction,
): Promise<void> {
  const spec = { intervals: [{ every }] };
  try {
    await client.schedule.create({
      scheduleId,
      spec,
      action,
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 hour' },
    });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    await client.schedule.getHandle(scheduleId).update((previous) => ({ ...previous, spec, action }));
  }
}

/**
 * A system's reconciliation schedule (issue 41 "A Temporal Schedule per system (`provision-reconcile-<system>`,
 * interval in configuration)"): converged on the connection as committed, after every save or removal.
 *
 * Why after the commit and not inside it (as access-reviews/schedules.ts does): the connection is the truth and
 * the schedule follows it (docs/decisions.md "Provisioning"). Temporal failing or late (TEMPORAL_DEADLINE_MS)
 * must not lose an ADMIN's change of a connection, and a schedule that lags is harmless (a run of a connection
 * turned off reports nothing it should not; one missing only delays a report). So the save commits, and the
 * schedule is converged in a second transaction that holds the system's row (FOR NO KEY UPDATE) and reads the
 * connection again, so two saves racing converge in commit order and the last one wins. When Temporal fails the
 * failure is logged and the call still answers its 200: the schedule converges on the next save of the
 * connection (saving it unchanged is enough) or when the worker starts (it converges the schedules of every
 * connection at its start).
 */
import { ScheduleNotFoundError } from '@temporalio/client';
import { provisionReconcileSchedule, provisionReconcileScheduleId, upsertIntervalSchedule } from '@portal/workflows';
import type { Deps } from '../../deps';
import { type Log, TEMPORAL_DEADLINE_MS, describe, lockSystem } from './common';
import type { ConnectionRow } from './views';

/** Creates or updates the schedule of enabled connection `c` (runs never overlap: a late run skips the next). */
async function upsertSchedule(deps: Deps, c: ConnectionRow): Promise<void> {
  const schedule = provisionReconcileSchedule(c.systemAccessId, c.reconcileEveryMinutes, deps.cfg.TEMPORAL_TASK_QUEUE);
  await upsertIntervalSchedule(deps.temporal, schedule.scheduleId, schedule.every, schedule.action);
}

/** Deletes the schedule of `systemAccessId`; one already gone is fine. */
async function deleteSchedule(deps: Deps, systemAccessId: number): Promise<void> {
  try {
    await deps.temporal.schedule.getHandle(provisionReconcileScheduleId(systemAccessId)).delete();
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
  }
}

/**
 * Converges the schedule of `systemAccessId` on its committed connection (module note): present and on the
 * connection's interval when it is enabled, absent when it is off or gone. Never throws: a failure is logged
 * (`log`) and @returns false; true when the schedule matches the connection.
 */
export async function convergeReconcileSchedule(deps: Deps, systemAccessId: number, log: Log): Promise<boolean> {
  try {
    await deps.prisma.$transaction(
      async (tx) => {
        await lockSystem(tx, systemAccessId);
        const c = await tx.provisioningConnection.findUnique({ where: { systemAccessId } });
        await deps.temporal.withDeadline(Date.now() + TEMPORAL_DEADLINE_MS, () =>
          c?.enabled ? upsertSchedule(deps, c) : deleteSchedule(deps, systemAccessId),
        );
      },
      { timeout: TEMPORAL_DEADLINE_MS + 10_000, maxWait: 10_000 },
    );
    return true;
  } catch (err) {
    log.error(
      { err: describe(err) },
      `provisioning: the reconciliation schedule of system ${systemAccessId} was not converged (next save or worker start)`,
    );
    return false;
  }
}

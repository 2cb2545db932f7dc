/**
 * Converges the reconciliation schedule of every enabled provisioning connection at worker start (issue 41):
 * the API creates, updates and deletes them on a connection's save, and this repairs any the API could not
 * reach Temporal for (or a namespace that was reset), and removes none (a disabled connection's schedule is
 * deleted by the API; a leftover one finds the connection off and reports nothing).
 */
import type { Client } from '@temporalio/client';
import type { PrismaClient } from '@portal/db';
import { provisionReconcileSchedule } from '@portal/workflows';
import { upsertIntervalSchedule } from '@portal/workflows';

/** @returns the schedule ids converged. @throws when Temporal or PostgreSQL fails. */
export async function ensureProvisioningSchedules(
  client: Client,
  prisma: PrismaClient,
  taskQueue: string,
): Promise<string[]> {
  const enabled = await prisma.provisioningConnection.findMany({ where: { enabled: true } });
  const ids: string[] = [];
  for (const conn of enabled) {
    const schedule = provisionReconcileSchedule(conn.systemAccessId, conn.reconcileEveryMinutes, taskQueue);
    await upsertIntervalSchedule(client, schedule.scheduleId, schedule.every, schedule.action);
    ids.push(schedule.scheduleId);
  }
  return ids;
}

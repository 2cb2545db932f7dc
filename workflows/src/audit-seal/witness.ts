/**
 * The audit chain's witness outside PostgreSQL (docs/decisions.md "A tamper-evident audit trail"): the newest
 * seal the schedule's last completed `auditSealWorkflow` run returned, read from Temporal's history. The
 * verifier compares it with the seals in PostgreSQL, so the newest rows and seals cannot be cut off together
 * unseen. Client-side only: not workflow code.
 */
import { type Client, ScheduleNotFoundError } from '@temporalio/client';
import { AUDIT_SEAL_SCHEDULE_ID, type AuditSealRef, type AuditSealResult } from './types';

/**
 * @returns the newest witnessed seal, or null when the schedule has no completed run holding one (sealing off,
 *   or nothing sealed yet).
 * @throws whatever Temporal answers when it cannot be reached.
 */
export async function newestWitnessedSeal(
  client: Client,
  scheduleId: string = AUDIT_SEAL_SCHEDULE_ID,
): Promise<AuditSealRef | null> {
  let recent;
  try {
    recent = (await client.schedule.getHandle(scheduleId).describe()).info.recentActions;
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) return null;
    throw err;
  }
  for (const action of [...recent].reverse()) {
    const { workflowId, firstExecutionRunId } = action.action.workflow;
    const handle = client.workflow.getHandle<() => Promise<AuditSealResult>>(workflowId, firstExecutionRunId);
    if ((await handle.describe()).status.name !== 'COMPLETED') continue;
    const result = await handle.result();
    if (result.newest) return result.newest;
  }
  return null;
}

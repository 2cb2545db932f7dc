/**
 * Creates or updates the Temporal Schedule of the audit sealer (docs/decisions.md "A tamper-evident audit
 * trail"): every `every` (AUDIT_SEAL_EVERY), `auditSealWorkflow` seals the audit rows committed since the newest
 * seal. Idempotent: every worker start converges the schedule on its configuration; overlapping runs are
 * skipped, so one run seals at a time (the sealer's advisory lock holds that across workers anyway).
 */
import type { Client } from '@temporalio/client';
import { AUDIT_SEAL_SCHEDULE_ID, AUDIT_SEAL_WORKFLOW_TYPE, type AuditSealInput } from '@portal/workflows';
import { upsertIntervalSchedule } from '@portal/workflows';

export interface AuditSealScheduleOptions {
  /** Temporal duration between runs, e.g. '1 minute'. */
  every: string;
  taskQueue: string;
  input?: AuditSealInput;
  scheduleId?: string;
}

export async function ensureAuditSealSchedule(client: Client, opts: AuditSealScheduleOptions): Promise<void> {
  const scheduleId = opts.scheduleId ?? AUDIT_SEAL_SCHEDULE_ID;
  await upsertIntervalSchedule(client, scheduleId, opts.every, {
    type: 'startWorkflow',
    workflowType: AUDIT_SEAL_WORKFLOW_TYPE,
    workflowId: `${scheduleId}-run`,
    taskQueue: opts.taskQueue,
    args: [opts.input ?? {}],
    staticSummary: 'Audit trail: seals the rows committed since the newest seal (signed, chained)',
  });
}

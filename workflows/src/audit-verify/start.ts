/**
 * Starting `audit-verify` (see ./types): USE_EXISTING joins a running verification; ALLOW_DUPLICATE lets a
 * closed one run again (unlike a request's `startOnce`, a verification is meant to be repeated). The run is
 * bounded (`workflowExecutionTimeout`), so a start on a task queue no worker polls does not read as running
 * for ever. Client-side only: not workflow code.
 */
import type { Client } from '@temporalio/client';
import { AUDIT_VERIFY_WORKFLOW_TYPE, auditVerifyWorkflowId, type AuditVerifyInput } from './types';
import type { auditVerifyWorkflow } from './workflow';

/** How long a verification may run at most before Temporal ends it. */
export const AUDIT_VERIFY_EXECUTION_TIMEOUT = '1 hour';

/**
 * Starts the verification on `taskQueue`, or joins the one running.
 * @throws the client's error when Temporal is unreachable.
 */
export async function startAuditVerify(client: Client, taskQueue: string, input: AuditVerifyInput): Promise<void> {
  await client.workflow.start<typeof auditVerifyWorkflow>(AUDIT_VERIFY_WORKFLOW_TYPE, {
    workflowId: auditVerifyWorkflowId(taskQueue),
    taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    workflowExecutionTimeout: AUDIT_VERIFY_EXECUTION_TIMEOUT,
    staticSummary: `Audit trail: verification asked by ${input.actor.username}`,
    staticDetails: `**Audit trail verification**\n\n- Recomputes every seal from the rows it covers and records the result (AUDIT_VERIFIED) as ${input.actor.username}.`,
  });
}

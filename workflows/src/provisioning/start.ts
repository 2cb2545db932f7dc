/**
 * The typed starts of provisioning (client-side): `provisionStart` for the listener's signal-with-start, and
 * `provisionReconcileAction` for a system's schedule or a 'Reconcile now'.
 */
import type { Client } from '@temporalio/client';
import { RequestTypeKey, SubjectUserIdKey, ProvisioningSystemKey } from '../search-attributes';
import type { provisionReconcileWorkflow } from './reconcile-workflow';
import {
  PROVISION_RECONCILE_WORKFLOW_TYPE,
  PROVISION_WORKFLOW_TYPE,
  type ProvisionInput,
  type ProvisionReconcileInput,
  provisionReconcileScheduleId,
  provisionWorkflowId,
  provisioningChangedSignal,
} from './types';

/** What signalling a person's provisioning needs: who, where, and the run's timing (ProvisionInput). */
export interface ProvisionTarget extends ProvisionInput {
  subjectId: string;
}

/**
 * Signal-with-start of `provision-<system>-<subject>` on `taskQueue`: a running run converges once more, or a new
 * one starts. @returns the workflow id. @throws the client's error when Temporal is unreachable (the notice
 * stays unstarted for the reconciler).
 */
export async function signalProvisioning(client: Client, taskQueue: string, target: ProvisionTarget): Promise<string> {
  const { subjectId, ...input } = target;
  const workflowId = provisionWorkflowId(input.systemAccessId, subjectId);
  await client.workflow.signalWithStart(PROVISION_WORKFLOW_TYPE, {
    workflowId,
    taskQueue,
    args: [input],
    signal: provisioningChangedSignal,
    signalArgs: [],
    typedSearchAttributes: [
      { key: RequestTypeKey, value: 'PROVISIONING' },
      { key: SubjectUserIdKey, value: input.portalUserId },
      { key: ProvisioningSystemKey, value: String(input.systemAccessId) },
    ],
    staticSummary: `Provisioning of user #${input.portalUserId} to system #${input.systemAccessId}`,
  });
  return workflowId;
}

/** The start of a reconciliation of `input.systemAccessId` (a schedule's action, or a direct start). */
export function provisionReconcileStart(input: ProvisionReconcileInput): {
  workflowType: string;
  args: Parameters<typeof provisionReconcileWorkflow>;
  typedSearchAttributes: [
    { key: typeof RequestTypeKey; value: string },
    { key: typeof ProvisioningSystemKey; value: string },
  ];
  staticSummary: string;
} {
  return {
    workflowType: PROVISION_RECONCILE_WORKFLOW_TYPE,
    args: [input],
    typedSearchAttributes: [
      { key: RequestTypeKey, value: 'PROVISIONING_RECONCILE' },
      { key: ProvisioningSystemKey, value: String(input.systemAccessId) },
    ],
    staticSummary: `Reconciliation of system #${input.systemAccessId}`,
  };
}

/**
 * The Temporal Schedule of `systemAccessId`'s reconciliation, every `everyMinutes` on `taskQueue`: its id,
 * interval and start action, as the API (on a connection's save) and the worker (at its start) converge it.
 */
export function provisionReconcileSchedule(systemAccessId: number, everyMinutes: number, taskQueue: string) {
  const scheduleId = provisionReconcileScheduleId(systemAccessId);
  const start = provisionReconcileStart({ systemAccessId });
  return {
    scheduleId,
    every: `${everyMinutes} minutes`,
    action: {
      type: 'startWorkflow' as const,
      workflowType: start.workflowType,
      workflowId: `${scheduleId}-run`,
      taskQueue,
      args: start.args,
      typedSearchAttributes: start.typedSearchAttributes,
      staticSummary: start.staticSummary,
    },
  };
}

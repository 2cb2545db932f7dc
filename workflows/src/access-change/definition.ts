/**
 * The access-change request kind (`access-change-<id>`, 001 §4 Request statuses): NEW → any unresolved
 * status → APPROVED or REJECTED, saved by a reviewer with WRITE_USERS (001 §6). Approval's effect (the
 * access records) is written by the commit in the database; it has no effects outside it.
 */
import { type RequestStatus, canTransition, isResolved } from '@portal/contract/statuses';
import { type RequestKindDefinition, workflowIdOf } from '../lifecycle/definition';

export const accessChangeDefinition: RequestKindDefinition<RequestStatus> = {
  kind: 'ACCESS_CHANGE',
  idPrefix: 'access-change',
  workflowType: 'accessChangeWorkflow',
  label: 'Access change request',
  initialStatus: 'NEW',
  isResolved,
  canTransition,
  outsideEffectsOn: null,
  reviewPermission: 'WRITE_USERS',
  approvalStages: true,
};

export const ACCESS_CHANGE_WORKFLOW_TYPE = accessChangeDefinition.workflowType;
export const accessChangeWorkflowId = (requestId: number): string => workflowIdOf(accessChangeDefinition, requestId);

/**
 * The profile-change request kind (`profile-change-<id>`, 001 §2.10, §4 Request statuses): the access-change
 * status table (NEW → any unresolved status → APPROVED or REJECTED), saved by a reviewer with WRITE_USERS (001
 * §6). Approval's outside effect (the requested name and email written to the user's directory entry, compare
 * then set) runs before its commit, which writes them to the portal user (REQUEST-LIFECYCLE rule 3). One
 * unresolved request per user (000 §5) is held by the API's filing under the (PROFILE_CHANGE, user) lock.
 */
import { type RequestStatus, canTransition, isResolved } from '@portal/contract/statuses';
import { type RequestKindDefinition, workflowIdOf } from '../lifecycle/definition';

export const profileChangeDefinition: RequestKindDefinition<RequestStatus> = {
  kind: 'PROFILE_CHANGE',
  idPrefix: 'profile-change',
  workflowType: 'profileChangeWorkflow',
  label: 'Profile-change request',
  initialStatus: 'NEW',
  isResolved,
  canTransition,
  outsideEffectsOn: 'APPROVED',
  reviewPermission: 'WRITE_USERS',
};

export const PROFILE_CHANGE_WORKFLOW_TYPE = profileChangeDefinition.workflowType;
export const profileChangeWorkflowId = (requestId: number): string => workflowIdOf(profileChangeDefinition, requestId);

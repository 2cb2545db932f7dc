/**
 * The registration kind (`registration-<id>`, 001 §4 Registration status): PENDING until a reviewer with
 * WRITE_USERS (001 §6) saves it (PENDING → PENDING: comments, ticket, chosen portal roles), rejects it
 * (DENIED, read-only afterwards), deletes it (DELETED, kept for the audit trail) or approves it (APPROVED).
 * Approval's outside effect (the directory entry created or linked) runs before its commit (rule 3); the
 * approval's choices (portal roles, entry, username, gecos, account type) travel in the review `payload`.
 */
import type { RegistrationStatus } from '@portal/contract';
import { type RequestKindDefinition, workflowIdOf } from '../lifecycle/definition';

const RESOLVED: readonly RegistrationStatus[] = ['APPROVED', 'DENIED', 'DELETED'];

export const registrationDefinition: RequestKindDefinition<RegistrationStatus> = {
  kind: 'REGISTRATION',
  idPrefix: 'registration',
  workflowType: 'registrationWorkflow',
  label: 'Registration',
  initialStatus: 'PENDING',
  isResolved: (status) => RESOLVED.includes(status),
  // Only a pending registration can be acted on; every action is open from it, including a plain save.
  canTransition: (from, to) => from === 'PENDING' && (to === 'PENDING' || RESOLVED.includes(to)),
  outsideEffectsOn: 'APPROVED',
  reviewPermission: 'WRITE_USERS',
};

export const REGISTRATION_WORKFLOW_TYPE = registrationDefinition.workflowType;
export const registrationWorkflowId = (registrationId: number): string =>
  workflowIdOf(registrationDefinition, registrationId);

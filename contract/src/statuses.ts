/**
 * Request statuses, types and the status transition table (001 §4 States and transitions).
 * Pure module: imported by the deterministic workflow code, the API and the browser.
 */
export const REQUEST_STATUSES = [
  'NEW',
  'IN_PROGRESS',
  'PENDING_REVIEW',
  'PENDING_OUTSIDE_ACTION',
  'APPROVED',
  'REJECTED',
] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export const REQUEST_STATUS_LABELS: Record<RequestStatus, string> = {
  NEW: 'New',
  IN_PROGRESS: 'In Progress',
  PENDING_REVIEW: 'Pending Review',
  PENDING_OUTSIDE_ACTION: 'Pending Outside Action',
  APPROVED: 'Approved',
  REJECTED: 'Rejected',
};

/** 001 §4: APPROVED and REJECTED are resolved; the rest are unresolved (outstanding). */
export const RESOLVED_STATUSES: readonly RequestStatus[] = ['APPROVED', 'REJECTED'];

export function isResolved(status: RequestStatus): boolean {
  return RESOLVED_STATUSES.includes(status);
}

export const REQUEST_TYPES = ['NEW', 'CHANGE', 'REMOVAL'] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];

export const REQUEST_TYPE_LABELS: Record<RequestType, string> = {
  NEW: 'New Access',
  CHANGE: 'Access Change',
  REMOVAL: 'Access Removal',
};

/** The kind of request a workflow runs; the value of the RequestType search attribute's family. */
export const WORKFLOW_KINDS = ['ACCESS_CHANGE', 'REGISTRATION', 'PROFILE_CHANGE', 'PROXY_BATCH'] as const;
export type WorkflowKind = (typeof WORKFLOW_KINDS)[number];

/**
 * Statuses a reviewer may save a request with, given its current status (001 §4):
 * - a resolved request is locked: nothing;
 * - NEW cannot be chosen unless the request is already NEW;
 * - an unresolved request may keep its status (a save of comments or ticket number) or move to any
 *   other status but NEW.
 */
export function allowedNextStatuses(from: RequestStatus): RequestStatus[] {
  if (isResolved(from)) return [];
  return REQUEST_STATUSES.filter((to) => to !== 'NEW' || from === 'NEW');
}

/** True when a request in `from` may be saved with status `to` (see allowedNextStatuses). */
export function canTransition(from: RequestStatus, to: RequestStatus): boolean {
  return allowedNextStatuses(from).includes(to);
}

/** Shapes of the access-change workflow's input, state, messages and activities (001 §4). */
import type { RequestStatus, RequestType } from '@portal/contract/statuses';

export const ACCESS_CHANGE_WORKFLOW_TYPE = 'accessChangeWorkflow';
export const accessChangeWorkflowId = (requestId: number): string => `access-change-${requestId}`;

export interface AccessChangeInput {
  requestId: number;
  requestType: RequestType;
  subjectUserId: number;
  requesterUserId: number;
}

/** What the `state` query returns and every update answers with. */
export interface AccessChangeState {
  requestId: number;
  requestType: RequestType;
  status: RequestStatus;
  /** Number of reviewer transitions applied; a review must name it (optimistic concurrency). */
  version: number;
  reviewerComments: string;
  sysaidTicket: string;
  lastModifiedBy: string | null;
  accessApplied: boolean;
}

export interface ReviewActor {
  userId: number;
  username: string;
  permissions: string[];
}

/** The `review` update's argument: a reviewer saves status, comments and ticket number (001 §2.8). */
export interface ReviewInput {
  expectedVersion: number;
  requestStatus: RequestStatus;
  reviewerComments: string;
  sysaidTicket: string;
  actor: ReviewActor;
}

export interface ProjectTransitionInput {
  requestId: number;
  workflowId: string;
  version: number;
  fromStatus: RequestStatus;
  toStatus: RequestStatus;
  reviewerComments: string;
  sysaidTicket: string;
  actor: ReviewActor;
}

export interface ApplyAccessInput {
  requestId: number;
  workflowId: string;
  actor: ReviewActor;
}

export interface ResolutionMailInput {
  requestId: number;
  workflowId: string;
}

/** Activities the access-change workflow calls; the worker implements them. */
export interface AccessChangeActivities {
  /** Writes the projection row and one audit row for a transition; idempotent per (workflowId, version). */
  projectTransition(input: ProjectTransitionInput): Promise<void>;
  /** Applies an approved request to the subject's access records; idempotent per request. */
  applyApprovedAccess(input: ApplyAccessInput): Promise<void>;
  /** Mails the subject that the request was resolved; at most once per workflow. */
  sendResolutionMail(input: ResolutionMailInput): Promise<void>;
}

/** ApplicationFailure types the review validator and handler raise; the API maps them to 422 / 304 / 403. */
export const REVIEW_FAILURES = {
  stale: 'STALE_VERSION',
  illegal: 'ILLEGAL_TRANSITION',
  noChanges: 'NO_CHANGES',
  forbidden: 'PERMISSION_DENIED',
  busy: 'REVIEW_IN_PROGRESS',
} as const;

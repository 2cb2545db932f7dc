/**
 * Shapes of the one request lifecycle every request kind runs on (REQUEST-LIFECYCLE.md "The shape"): its
 * state, the reviewer's `review` update, the commit activity's input and answer, and the failure types the
 * API maps to HTTP answers. Pure types and constants: imported by workflow code, the worker and the API.
 */
import type { WorkflowKind } from '@portal/contract/statuses';
import type { SignatureRef } from '@portal/contract';
import type { ApprovalState } from '../approval/types';

/** Who saves: the reviewer's portal user id, username and permissions (000 §6) at the time of the save. */
export interface ReviewActor {
  userId: number;
  username: string;
  permissions: string[];
}

/** Every lifecycle workflow's start argument. */
export interface LifecycleInput {
  requestId: number;
  subjectUserId: number;
  requesterUserId: number;
  /**
   * Overall deadline of the resolution mail's retries (Temporal duration, e.g. '24 hours'); past it the
   * mail is given up and audited as MAIL_FAILED (rule 5). Tests shorten it.
   */
  notificationDeadline?: string;
  /**
   * Overall deadline of each database write's retries (commit, outside effects, MAIL_FAILED bookkeeping;
   * Temporal duration, default '10 minutes' of WRITE_ACTIVITY_OPTIONS). Tests shorten it to make an outage
   * outlast it (issue 21).
   */
  writeDeadline?: string;
  /**
   * Start-to-close timeout of each attempt of a database write (Temporal duration, default '30 seconds' of
   * WRITE_ACTIVITY_OPTIONS): how long an attempt whose worker died waits before it is retried on another.
   * Tests that kill a worker mid-write shorten it.
   */
  writeAttemptTimeout?: string;
  /**
   * Approval stages (docs/decisions.md "Approval policies"): the length of one working day in milliseconds
   * for the stages' reminders and deadlines, instead of the calendar's working days. Tests shrink it.
   */
  approvalDayMs?: number;
  /**
   * The number of stages of the request's approval plan, as its filing wrote it: 0 runs exactly the spec's
   * review (no plan read); absent (a start that did not know it, histories before it) the workflow reads it.
   */
  approvalStages?: number;
}

/** What the `state` query returns and every accepted `review` answers with. */
export interface LifecycleState<S extends string = string> {
  kind: WorkflowKind;
  requestId: number;
  status: S;
  /** Number of saves committed; a save must name it (optimistic concurrency). */
  version: number;
  reviewerComments: string;
  sysaidTicket: string;
  lastModifiedBy: string | null;
  /**
   * True once the kind's effects outside the database (LDAP) may have run (rule 3): set before they start, so an
   * effect that ran but did not report is either finished by the approval or undone by any other save.
   */
  outsideEffectsRan: boolean;
  /** True while a save is being committed. */
  busy: boolean;
  /** The approval stages (docs/decisions.md "Approval policies"); absent for kinds and requests without them. */
  approval?: ApprovalState;
}

/** The `review` update's argument: status, comments and ticket number, plus the kind's own payload. */
export interface ReviewInput<S extends string = string> {
  expectedVersion: number;
  requestStatus: S;
  reviewerComments: string;
  sysaidTicket: string;
  actor: ReviewActor;
  /** Kind-specific part of the save (validated by the kind's commit), e.g. granted access later. */
  payload?: unknown;
  /**
   * The electronic signature of this save (docs/decisions.md "Electronic signatures"), when SIGNATURES=on and
   * the save is signed: the checked ticket's row id, taken by the commit in the save's transaction.
   */
  signature?: SignatureRef;
  /**
   * Why an APPROVED save is made while approval stages are still open (docs/decisions.md "Approval
   * policies"): required then, audited as an override; closes the open stages.
   */
  approvalOverride?: string;
}

/** The commit activity's argument: one save, keyed by (workflowId, version) (rule 2). */
export interface CommitSaveInput<S extends string = string> {
  kind: WorkflowKind;
  requestId: number;
  workflowId: string;
  /** The version this save creates (state.version + 1). */
  version: number;
  fromStatus: S;
  toStatus: S;
  reviewerComments: string;
  sysaidTicket: string;
  actor: ReviewActor;
  payload?: unknown;
  /** The save's signature (ReviewInput.signature), written with the save. */
  signature?: SignatureRef;
  /** ReviewInput.approvalOverride, audited with the save. */
  approvalOverride?: string;
}

/** A save found committed under a key (`<workflowId>:<version>`): the state it left the request in. */
export interface CommittedSave {
  version: number;
  status: string;
  reviewerComments: string;
  sysaidTicket: string;
  /** The reviewer's username. */
  lastModifiedBy: string;
}

/**
 * The idempotency key of a save's commit (rule 2): the audit row of version `version` of workflow `workflowId`.
 * The worker writes it; the API reads it to answer a retried save past the namespace's retention.
 */
export const commitKey = (workflowId: string, version: number): string => `${workflowId}:${version}`;

/**
 * The commit's answer: written (or found written by an earlier attempt of the same save), refused with the
 * spec's body, or SUPERSEDED: another save already holds this key (issue 21 case 1); nothing was written.
 */
export type CommitResult =
  | {
      outcome: 'COMMITTED';
      at: string;
      /** The request's subject after the save, when the save gave it one (an approved registration's user). */
      subjectUserId?: number | null;
    }
  | { outcome: 'SUPERSEDED'; committed: CommittedSave }
  | {
      outcome: 'REFUSED';
      failure: typeof REVIEW_FAILURES.noChanges | typeof REVIEW_FAILURES.invalid;
      fieldErrors: Record<string, string[]>;
      globalErrors: string[];
    };

/** A refusal of a save (422 / 304): nothing was written. */
export type CommitRefusal = Extract<CommitResult, { outcome: 'REFUSED' }>;

/** What the database says of a save whose commit failed or timed out: written, superseded, or not written. */
export type CommitReading =
  | { outcome: 'COMMITTED'; at: string }
  | { outcome: 'SUPERSEDED'; committed: CommittedSave }
  | { outcome: 'NOT_COMMITTED' };

/** The outside-effects activity's argument (rule 3): runs before the approving commit, or undoes it. */
export interface OutsideEffectsInput {
  kind: WorkflowKind;
  requestId: number;
  workflowId: string;
  actor: ReviewActor;
  payload?: unknown;
  /** The version the save that runs (or undoes) the effects would create; keys the undo's audit row. */
  version?: number;
}

/** The resolution mail (rule 5). */
export interface NotificationInput {
  kind: WorkflowKind;
  requestId: number;
  workflowId: string;
}

/** Written when the resolution mail was given up (rule 5). */
export interface NotificationFailureInput extends NotificationInput {
  reason: string;
}

/** Activities every lifecycle workflow calls; the worker implements them per kind. */
export interface LifecycleActivities {
  /** Writes one save (kind effects + request row + audit row) in one transaction; may refuse. */
  commitSave(input: CommitSaveInput): Promise<CommitResult>;
  /** Reads, without writing, whether `input` (or another save under its key) was committed (issue 21 case 1). */
  readCommittedSave(input: CommitSaveInput): Promise<CommitReading>;
  /**
   * Idempotent effects outside the database (compare-then-set, keyed creates). Answers a refusal, with the
   * spec's body, when they were refused before anything was written (an address another approval took).
   */
  applyOutsideEffects(input: OutsideEffectsInput): Promise<CommitRefusal | null | undefined>;
  /**
   * Undoes effects outside the database that may have run (issue 21 case 2): restores the old directory values,
   * removes an entry the request created (never one it linked); audited, idempotent.
   */
  undoOutsideEffects(input: OutsideEffectsInput): Promise<void>;
  /** Mails the subject that the request was resolved; at most one mail per workflow. */
  sendResolutionMail(input: NotificationInput): Promise<void>;
  /** Audits a resolution mail that could not be sent (MAIL_FAILED). */
  recordMailFailure(input: NotificationFailureInput): Promise<void>;
}

/**
 * ApplicationFailure types of the review update and its activities. The API maps them: STALE_VERSION and
 * INVALID 422, NO_CHANGES 304, PERMISSION_DENIED 403, REVIEW_IN_PROGRESS 409, SAVE_FAILED 503.
 */
export const REVIEW_FAILURES = {
  stale: 'STALE_VERSION',
  illegal: 'ILLEGAL_TRANSITION',
  noChanges: 'NO_CHANGES',
  invalid: 'INVALID',
  forbidden: 'PERMISSION_DENIED',
  busy: 'REVIEW_IN_PROGRESS',
  saveFailed: 'SAVE_FAILED',
} as const;
export type ReviewFailureType = (typeof REVIEW_FAILURES)[keyof typeof REVIEW_FAILURES];

/** Errors an activity raises that can never succeed on retry (rule 6): not retried. */
export const NON_RETRYABLE_ERRORS = {
  requestNotFound: 'REQUEST_NOT_FOUND',
  invalidStoredBody: 'INVALID_STORED_BODY',
  versionConflict: 'VERSION_CONFLICT',
} as const;

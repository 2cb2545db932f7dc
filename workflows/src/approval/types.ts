/**
 * Shapes of an access-change request's approval stages (docs/decisions.md "Approval policies"): the
 * `decideStage` update's argument, the stage part of the lifecycle's state, and the activities the stages call.
 * Pure types and constants: imported by workflow code, the worker and the API.
 */
import type { ApproverGroup, StageDecision } from '@portal/contract';
import type { SignatureRef } from '@portal/contract';
import type { CommittedSave, ReviewActor } from '../lifecycle/types';

/** The `decideStage` update's argument: the open stage's decision at the request's version. */
export interface StageDecisionInput {
  /** 1-based; must be the open stage. */
  stage: number;
  decision: StageDecision;
  /** Required to reject (the requester is mailed it); trimmed, at most 512 characters. */
  comment: string;
  expectedVersion: number;
  actor: ReviewActor;
  /** The decision's electronic signature when SIGNATURES=on ('Approved – stage n' / 'Rejected – stage n'). */
  signature?: SignatureRef;
}

/** The stage part of the lifecycle's state (the `state` query and every update's answer). */
export interface ApprovalState {
  /** Stages in the plan (0: none: the spec's single review). */
  stages: number;
  /** The open stage (1-based), null when none is open. */
  stage: number | null;
  /** Who may decide the open stage now. */
  group: ApproverGroup | null;
  /** ISO instants of the open stage. */
  remindAt: string | null;
  deadlineAt: string | null;
  escalated: boolean;
}

/** An opened stage as the activity that opened it answers. */
export interface OpenedStage {
  stage: number;
  group: ApproverGroup;
  /** ISO instants; remindAt null when the stage has no reminder. */
  remindAt: string | null;
  deadlineAt: string;
  /** True when nobody could decide it as planned (no approver exists): escalated at once. */
  escalated: boolean;
}

/** The plan the request was filed under, as the workflow needs it: the number of stages. */
export interface LoadedPlan {
  stages: number;
}

/** The input of every stage activity. */
export interface StageActivityInput {
  requestId: number;
  workflowId: string;
  stage: number;
  /** LifecycleInput.approvalDayMs: a working day's length in tests; absent, the calendar's working days. */
  dayMs?: number;
}

/** The stage-decision commit's argument: keyed by (workflowId, version) as every save (REQUEST-LIFECYCLE rule 2). */
export interface StageCommitInput extends StageActivityInput {
  version: number;
  decision: StageDecision;
  comment: string;
  actor: ReviewActor;
  /** Opening the next stage in the same transaction (null after the last). */
  nextStage: number | null;
  signature?: SignatureRef;
}

/** The stage-decision commit's answer. */
export type StageCommitResult =
  | { outcome: 'COMMITTED'; next: OpenedStage | null; status: string; reviewerComments: string; at: string }
  | { outcome: 'SUPERSEDED'; committed: CommittedSave }
  | { outcome: 'REFUSED'; fieldErrors: Record<string, string[]>; globalErrors: string[] };

/** What the stages mail: the stage opened, its reminder, its escalation. */
export type StageMailReason = 'OPENED' | 'REMINDER' | 'ESCALATED';

/** Activities of the approval stages; the worker implements them. */
export interface ApprovalActivities {
  /** Reads the number of stages of the request's plan. */
  loadApprovalPlan(input: { requestId: number }): Promise<LoadedPlan>;
  /** Opens stage 1 (instants computed in working days); idempotent: an open stage is answered as it is. */
  openApprovalStage(input: StageActivityInput): Promise<OpenedStage>;
  /** Writes the decision, the request row and the audit row in one transaction, opening the next stage. */
  commitStageDecision(input: StageCommitInput): Promise<StageCommitResult>;
  /** Marks the reminder sent; idempotent. */
  recordStageReminder(input: StageActivityInput): Promise<void>;
  /** Hands the open stage to its escalation group; idempotent. */
  escalateApprovalStage(input: StageActivityInput): Promise<OpenedStage>;
  /** Mails who may decide the stage now (opened, reminder, escalated); at most once per reason and stage. */
  sendStageMail(input: StageActivityInput & { reason: StageMailReason }): Promise<void>;
}

/** The failure type of an APPROVED save while stages are open without an override justification (422). */
export const STAGES_OPEN_FAILURE = 'APPROVAL_STAGES_OPEN';
/** The failure type of a stage decision of a stage that is not the open one (422). */
export const STAGE_NOT_OPEN_FAILURE = 'APPROVAL_STAGE_NOT_OPEN';

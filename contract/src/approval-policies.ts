import { z } from 'zod';
import { BodyIdSchema } from './ids';
import { textSchema } from './text';

/**
 * Approval policies (docs/decisions.md "Approval policies"): ordered stages a NEW or CHANGE access-change
 * request passes before the spec's final User Support review (001 §4, §6), each decided by its approvers
 * with 'Approve stage' / 'Reject stage', each with a deadline in working days, a reminder before it and an
 * escalation at it to a fallback group. No policy: the spec's single review, unchanged. The spec has no texts
 * for any of it; they are written in the style of 001 §8.
 *
 * Who decides a stage:
 * - LAO_STAFF: holders of an active record of the reviewer study role (ACCESS_REVIEW_STUDY_ROLE, as access
 *   review campaigns) whose `laoIds` overlap the request's LAOs: the blocks' `laoIds` plus the LAOs of their
 *   `siteCodes` (`recordLaosSql`);
 * - STUDY_APPROVERS: the named approvers of the blocks' studies (a list per study, Configure → Studies);
 * - USER_SUPPORT: anyone with WRITE_USERS (the fallback of an escalated stage; the final review is theirs).
 * Never the request's requester or subject.
 */

/** The approver groups a stage can be waiting for. */
export const APPROVER_GROUPS = ['LAO_STAFF', 'STUDY_APPROVERS', 'USER_SUPPORT'] as const;
export type ApproverGroup = (typeof APPROVER_GROUPS)[number];
export const APPROVER_GROUP_LABELS: Record<ApproverGroup, string> = {
  LAO_STAFF: 'LAO staff',
  STUDY_APPROVERS: 'Study approvers',
  USER_SUPPORT: 'User Support',
};

/** The groups a policy's stage names, in the order stages run (LAO staff, then study approvers). */
export const STAGE_APPROVERS = ['LAO_STAFF', 'STUDY_APPROVERS'] as const;
export type StageApprovers = (typeof STAGE_APPROVERS)[number];

export const APPROVAL_LIMITS = {
  deadlineDays: { min: 1, max: 60 },
  /** Working days before the deadline the reminder is mailed; 0: no reminder. */
  reminderDays: { min: 0, max: 59 },
  comment: 512,
  overrideJustification: 512,
  studyApprovers: 200,
} as const;

/** One stage of a policy: who approves, the deadline and reminder in working days, who it escalates to. */
export const ApprovalStageSchema = z
  .object({
    approvers: z.enum(STAGE_APPROVERS),
    deadlineDays: z.number().int().min(APPROVAL_LIMITS.deadlineDays.min).max(APPROVAL_LIMITS.deadlineDays.max),
    reminderDays: z.number().int().min(APPROVAL_LIMITS.reminderDays.min).max(APPROVAL_LIMITS.reminderDays.max),
    escalateTo: z.enum(APPROVER_GROUPS).default('USER_SUPPORT'),
  })
  .superRefine((s, ctx) => {
    if (s.reminderDays >= s.deadlineDays)
      ctx.addIssue({ code: 'custom', path: ['reminderDays'], message: 'beforeDeadline', input: s.reminderDays });
    if (s.escalateTo === s.approvers)
      ctx.addIssue({ code: 'custom', path: ['escalateTo'], message: 'otherGroup', input: s.escalateTo });
  });
export type ApprovalStage = z.infer<typeof ApprovalStageSchema>;

/**
 * The body of POST /rest/secure/system_mgmt/approval_policies and PUT .../approval_policies/{id}: the study
 * role, optionally narrowed to one system, and its stages in order (each group at most once, LAO staff
 * first). PUT names the `versionno` it was loaded at (422 when another save came first).
 */
export const ApprovalPolicyBodySchema = z
  .object({
    studyRoleId: BodyIdSchema,
    systemAccessId: BodyIdSchema.nullable().default(null),
    stages: z.array(ApprovalStageSchema).min(1).max(STAGE_APPROVERS.length),
    active: z.boolean().default(true),
    versionno: z.number().int().min(0).optional(),
  })
  .superRefine((p, ctx) => {
    const order = p.stages.map((s) => STAGE_APPROVERS.indexOf(s.approvers));
    if (order.some((o, i) => i > 0 && o <= order[i - 1]!))
      ctx.addIssue({ code: 'custom', path: ['stages'], message: 'stageOrder', input: p.stages });
  });
export type ApprovalPolicyBody = z.infer<typeof ApprovalPolicyBodySchema>;

/** A policy as the API answers it. */
export interface ApprovalPolicy {
  id: number;
  studyRoleId: number;
  roleName: string;
  systemAccessId: number | null;
  systemName: string | null;
  stages: ApprovalStage[];
  active: boolean;
  versionno: number;
  lastModifiedBy: string;
  /** ISO instant. */
  dchng: string;
}

/** GET/PUT /rest/secure/system_mgmt/study/{id}/approvers: the study's named approvers (portal user ids). */
export const StudyApproversBodySchema = z.object({
  userIds: z.array(BodyIdSchema).max(APPROVAL_LIMITS.studyApprovers),
});
export type StudyApproversBody = z.infer<typeof StudyApproversBodySchema>;

export interface StudyApprover {
  userId: number;
  username: string;
  firstName: string;
  lastName: string;
  email: string;
}

/**
 * One stage of a request's plan, fixed when the request was filed (a policy changed later does not move it):
 * the stage's group, its deadline and reminder in working days, its escalation group, and the policies that
 * asked for it.
 */
export interface PlannedStage {
  approvers: StageApprovers;
  deadlineDays: number;
  reminderDays: number;
  escalateTo: ApproverGroup;
  policyIds: number[];
}

/** A request's approval plan (stored on the request at filing; empty stages: the spec's single review). */
export interface ApprovalPlan {
  stages: PlannedStage[];
  /** The LAOs whose LAO staff decide a LAO_STAFF stage (sorted, distinct). */
  laoIds: string[];
  /** The studies whose approvers decide a STUDY_APPROVERS stage (sorted, distinct). */
  studyNames: string[];
}

export const STAGE_DECISIONS = ['APPROVED', 'REJECTED'] as const;
export type StageDecision = (typeof STAGE_DECISIONS)[number];

/** One stage of a request as the request's view answers it. */
export interface RequestStageView {
  /** 1-based. */
  stage: number;
  approvers: StageApprovers;
  /** Who may decide it now: `approvers`, or `escalateTo` once escalated. */
  group: ApproverGroup;
  state: 'WAITING' | 'OPEN' | 'APPROVED' | 'REJECTED' | 'CLOSED';
  /** ISO instants, null until the stage opened. */
  openedAt: string | null;
  remindAt: string | null;
  deadlineAt: string | null;
  escalatedAt: string | null;
  decidedAt: string | null;
  decidedBy: string | null;
  comment: string | null;
}

/**
 * The `approval` part of an access-change request's view: null for a request with no plan. `currentStage` is
 * the open stage (1-based), null when none is open (all approved, or the request resolved). `mayDecide`: the
 * caller may decide the open stage now.
 */
export interface RequestApprovalView {
  stages: RequestStageView[];
  currentStage: number | null;
  mayDecide: boolean;
}

/**
 * POST /rest/secure/user_access_mod_request/{id}/stage: a stage approver's decision of the open stage
 * (`stage`, 1-based) at the request's `versionno`, with a comment (required to reject). Sent as the workflow's
 * `decideStage` update with the review's attempt-key, busy and version rules.
 */
export const StageDecisionBodySchema = z
  .object({
    stage: z.number().int().min(1).max(STAGE_APPROVERS.length),
    decision: z.enum(STAGE_DECISIONS),
    comment: textSchema(APPROVAL_LIMITS.comment),
    versionno: z.number().int().min(0),
    attemptKey: z.string().min(8).max(64).optional(),
  })
  .superRefine((b, ctx) => {
    if (b.decision === 'REJECTED' && !b.comment)
      ctx.addIssue({ code: 'custom', path: ['comment'], message: 'required', input: b.comment });
  });
export type StageDecisionBody = z.infer<typeof StageDecisionBodySchema>;

/** One row of 'Awaiting my approval' (GET /rest/secure/user_access_mod_request/awaiting_my_approval). */
export interface AwaitingApprovalRow {
  id: number;
  requestType: 'NEW' | 'CHANGE';
  stage: number;
  stages: number;
  group: ApproverGroup;
  escalated: boolean;
  firstName: string;
  lastName: string;
  email: string;
  roleNames: string[];
  /** ISO instants. */
  dateSubmitted: string;
  stageOpenedAt: string;
  deadlineAt: string;
}

export const APPROVAL_TEXTS = {
  awaitingTitle: 'Awaiting my approval',
  awaitingEmpty: 'No request is waiting for your approval.',
  approveStage: 'Approve stage',
  rejectStage: 'Reject stage',
  stageOf: (stage: number, stages: number) => `Stage ${stage} of ${stages}`,
  stagesOpen:
    'Earlier approval stages are still open. Approve only with an override justification, or wait for the stage approvers.',
  overrideLabel: 'Override justification',
  stageDecided: 'This stage was decided by someone else; the request was reloaded.',
  notYourStage: 'You may not decide this stage.',
  overdue: 'Overdue',
  loadPolicy: 'Problem loading approval policy.',
  loadStudy: 'Problem loading study.',
  signatureMeaning: (decision: StageDecision, stage: number) =>
    `${decision === 'APPROVED' ? 'Approved' : 'Rejected'} – stage ${stage}`,
} as const;

// --- Response schemas (the API's route schemas; they describe only) ---------------------------------------

const ApproverGroupSchema = z.enum(APPROVER_GROUPS);

/**
 * A request's open stage in a list row (the requester's dashboard): 'Stage `stage` of `stages`: `group`'
 * (the group deciding it now: its approvers, or its escalation group once escalated).
 */
export const OpenStageSchema = z.object({
  stage: z.number().int(),
  stages: z.number().int(),
  group: ApproverGroupSchema,
});
export type OpenStage = z.infer<typeof OpenStageSchema>;

/** ApprovalPolicy as a response schema. */
export const ApprovalPolicySchema = z.object({
  id: z.number().int(),
  studyRoleId: z.number().int(),
  roleName: z.string(),
  systemAccessId: z.number().int().nullable(),
  systemName: z.string().nullable(),
  stages: z.array(
    z.object({
      approvers: z.enum(STAGE_APPROVERS),
      deadlineDays: z.number().int(),
      reminderDays: z.number().int(),
      escalateTo: ApproverGroupSchema,
    }),
  ),
  active: z.boolean(),
  versionno: z.number().int(),
  lastModifiedBy: z.string(),
  dchng: z.string(),
}) satisfies z.ZodType<ApprovalPolicy>;

/** StudyApprover as a response schema. */
export const StudyApproverSchema = z.object({
  userId: z.number().int(),
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
}) satisfies z.ZodType<StudyApprover>;

/** A study with its id (GET /rest/secure/system_mgmt/studies: Configure → Studies, whose approvers are set). */
export const ConfigStudySchema = z.object({ id: z.number().int(), study: z.string(), active: z.boolean() });
export type ConfigStudy = z.infer<typeof ConfigStudySchema>;

const instant = z.string().nullable();

/** RequestApprovalView as a response schema (the `approval` of an access-change request's view). */
export const RequestApprovalViewSchema = z.object({
  stages: z.array(
    z.object({
      stage: z.number().int(),
      approvers: z.enum(STAGE_APPROVERS),
      group: ApproverGroupSchema,
      state: z.enum(['WAITING', 'OPEN', 'APPROVED', 'REJECTED', 'CLOSED']),
      openedAt: instant,
      remindAt: instant,
      deadlineAt: instant,
      escalatedAt: instant,
      decidedAt: instant,
      decidedBy: z.string().nullable(),
      comment: z.string().nullable(),
    }),
  ),
  currentStage: z.number().int().nullable(),
  mayDecide: z.boolean(),
}) satisfies z.ZodType<RequestApprovalView>;

/** AwaitingApprovalRow as a response schema. */
export const AwaitingApprovalRowSchema = z.object({
  id: z.number().int(),
  requestType: z.enum(['NEW', 'CHANGE']),
  stage: z.number().int(),
  stages: z.number().int(),
  group: ApproverGroupSchema,
  escalated: z.boolean(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  roleNames: z.array(z.string()),
  dateSubmitted: z.string(),
  stageOpenedAt: z.string(),
  deadlineAt: z.string(),
}) satisfies z.ZodType<AwaitingApprovalRow>;

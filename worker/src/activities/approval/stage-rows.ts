/**
 * The rows of an access-change request's approval stages (docs/decisions.md "Approval policies"), written once
 * for the stage activities: the plan read from the request, a stage opened (its instants in working days, or
 * in `dayMs` slices in tests; escalated at once when nobody could decide it), the request's open-stage columns
 * and the stage's audit rows. Every function runs in the caller's transaction, after the request row was locked.
 */
import { ApplicationFailure } from '@temporalio/activity';
import { type ApprovalPlan, type ApproverGroup, RESOLVED_STATUSES } from '@portal/contract';
import { type Prisma, anyStageApprover, prismaRunner, recordAudit } from '@portal/db';
import { NON_RETRYABLE_ERRORS, type OpenedStage } from '@portal/workflows';
import { afterWorkingDays } from './working-days';

type Tx = Prisma.TransactionClient;

/** What the stage activities need besides the database (from the worker's configuration). */
export interface ApprovalSettings {
  /** ACCESS_REVIEW_STUDY_ROLE: the study role whose holders are LAO staff. */
  reviewerStudyRole: string;
  /** NETWORK_TIME_ZONE. */
  timeZone: string;
  /** NETWORK_HOLIDAYS: days 'YYYY-MM-DD' that are not working days. */
  holidays: readonly string[];
}

/** The request row as the stage activities read it, locked. */
export interface LockedRequest {
  id: number;
  workflowId: string;
  requestStatus: string;
  requesterUserId: number;
  subjectUserId: number;
  versionno: number;
  reviewerComments: string;
  sysaidTicket: string;
  lastModifiedBy: string;
  approvalPlan: ApprovalPlan | null;
  approvalStage: number | null;
  /** Who may decide the open stage now (the stage's group, or its escalation group). */
  approvalGroup: ApproverGroup | null;
  approvalLaoIds: string[];
  approvalStudyNames: string[];
}

/** Locks and reads request `requestId`. @throws ApplicationFailure REQUEST_NOT_FOUND (non-retryable). */
export async function lockRequest(tx: Tx, requestId: number): Promise<LockedRequest> {
  const [row] = await tx.$queryRaw<LockedRequest[]>`
    SELECT "id", "workflowId", "requestStatus"::text AS "requestStatus", "requesterUserId", "subjectUserId",
           "versionno", "reviewerComments", "sysaidTicket", "lastModifiedBy", "approvalPlan", "approvalStage",
           "approvalGroup"::text AS "approvalGroup", "approvalLaoIds", "approvalStudyNames"
      FROM "AccessModRequest" WHERE "id" = ${requestId} FOR UPDATE`;
  if (!row) {
    throw ApplicationFailure.nonRetryable(`request ${requestId} not found`, NON_RETRYABLE_ERRORS.requestNotFound);
  }
  return row;
}

export const isResolvedStatus = (status: string): boolean => (RESOLVED_STATUSES as readonly string[]).includes(status);

const SYSTEM = { userId: null, username: 'system' } as const;

/** The stage row `stage` of the request as the workflow sees it (an open stage). */
export async function openedStageOf(tx: Tx, requestId: number, stage: number): Promise<OpenedStage | null> {
  const row = await tx.accessRequestStage.findUnique({ where: { requestId_stage: { requestId, stage } } });
  if (!row?.openedAt || !row.deadlineAt) return null;
  return {
    stage,
    group: row.approverGroup,
    remindAt: row.remindAt?.toISOString() ?? null,
    deadlineAt: row.deadlineAt.toISOString(),
    escalated: row.escalatedAt !== null,
  };
}

/** How a stage is opened: by its own activity (a retry finds it open), or by the commit of the decision before it. */
export interface OpenOptions {
  /** Opened by the decision's commit (its key was new): not open yet, its rows written at stage 1. */
  afterDecision?: boolean;
  /** More columns of the request's row, written in the same UPDATE (the decision's version). */
  requestColumns?: Prisma.AccessModRequestUpdateInput;
  dayMs?: number;
}

/**
 * Opens stage `stage` of `request` now (its plan's rows written on the first opening), unless it was opened
 * already (a retry): the instants from its working days, the request's open-stage columns, the audit row. A
 * stage nobody could decide (no approver in its group) is escalated at once.
 */
export async function openStage(
  tx: Tx,
  request: LockedRequest,
  stage: number,
  settings: ApprovalSettings,
  opts: OpenOptions = {},
): Promise<OpenedStage> {
  if (!opts.afterDecision) {
    const already = await openedStageOf(tx, request.id, stage);
    if (already) return already;
  }
  const plan = request.approvalPlan;
  const planned = plan?.stages[stage - 1];
  if (!plan || !planned) {
    throw ApplicationFailure.nonRetryable(
      `request ${request.id} has no stage ${stage}`,
      NON_RETRYABLE_ERRORS.invalidStoredBody,
    );
  }
  if (!opts.afterDecision)
    await tx.accessRequestStage.createMany({
      data: plan.stages.map((s, i) => ({
        requestId: request.id,
        stage: i + 1,
        approvers: s.approvers,
        escalateTo: s.escalateTo,
        approverGroup: s.approvers,
        deadlineDays: s.deadlineDays,
        reminderDays: s.reminderDays,
      })),
      skipDuplicates: true,
    });
  const now = new Date();
  const dayMs = opts.dayMs;
  const after = (days: number) =>
    dayMs
      ? new Date(now.getTime() + days * dayMs)
      : afterWorkingDays(now, days, settings.timeZone, new Set(settings.holidays));
  const deadlineAt = after(planned.deadlineDays);
  const remindAt = planned.reminderDays > 0 ? after(planned.deadlineDays - planned.reminderDays) : null;
  const audience = { ...request, approvalGroup: planned.approvers };
  const nobody = !(await anyStageApprover(prismaRunner(tx), audience, settings.reviewerStudyRole));
  const group: ApproverGroup = nobody ? planned.escalateTo : planned.approvers;
  await tx.accessRequestStage.update({
    where: { requestId_stage: { requestId: request.id, stage } },
    data: {
      state: 'OPEN',
      openedAt: now,
      remindAt,
      deadlineAt,
      approverGroup: group,
      escalatedAt: nobody ? now : null,
    },
  });
  await setOpenStage(tx, request.id, { stage, group, deadlineAt }, opts.requestColumns);
  await recordAudit(tx, SYSTEM, {
    entityType: 'AccessModRequest',
    entityId: request.id,
    action: 'APPROVAL_STAGE_OPENED',
    after: { stage, approvers: planned.approvers, group, deadlineAt: deadlineAt.toISOString(), noApprover: nobody },
    workflowId: request.workflowId,
    idempotencyKey: `${request.workflowId}:stage-${stage}:opened`,
  });
  return {
    stage,
    group,
    remindAt: remindAt?.toISOString() ?? null,
    deadlineAt: deadlineAt.toISOString(),
    escalated: nobody,
  };
}

/** Writes the request's open-stage columns (null: no stage open), with `more` of its columns in the same UPDATE. */
export async function setOpenStage(
  tx: Tx,
  requestId: number,
  open: { stage: number; group: ApproverGroup; deadlineAt: Date } | null,
  more: Prisma.AccessModRequestUpdateInput = {},
): Promise<void> {
  await tx.accessModRequest.update({
    where: { id: requestId },
    data: {
      ...more,
      approvalStage: open?.stage ?? null,
      approvalGroup: open?.group ?? null,
      approvalDeadline: open?.deadlineAt ?? null,
    },
  });
}

/** Closes the stages still waiting or open (the request was resolved); the caller clears the open-stage columns. */
export async function closeStages(tx: Tx, requestId: number): Promise<void> {
  await tx.accessRequestStage.updateMany({
    where: { requestId, state: { in: ['WAITING', 'OPEN'] } },
    data: { state: 'CLOSED' },
  });
}

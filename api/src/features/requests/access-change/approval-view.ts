/**
 * The `approval` part of an access-change request's view (docs/decisions.md "Approval policies"; contract
 * RequestApprovalView): the request's stages as the workflow wrote them (AccessRequestStage), the open one,
 * and whether the caller may decide it now (`mayDecideStage`, the one rule of prisma/src/approval-authority.ts).
 */
import type {
  AccessModRequest,
  ApproverGroup,
  RequestApprovalView,
  RequestStageView,
  UserAccess,
} from '@portal/contract';
import {
  type AccessModRequest as AccessModRequestRow,
  type AccessRequestStage,
  type StageActor,
  mayDecideStage,
  prismaRunner,
} from '@portal/db';
import type { Deps } from '../../../deps';
import { withRequestSignature } from '../../../shared/request-signatures';
import { temporalUiOf, userAccessViews } from '../../../shared/views';
import { type RequestRow, accessModRequestView } from './view';

/** What of a request row its approval reads. */
export type ApprovalRow = Pick<
  AccessModRequestRow,
  | 'id'
  | 'approvalPlan'
  | 'approvalStage'
  | 'approvalGroup'
  | 'approvalLaoIds'
  | 'approvalStudyNames'
  | 'requesterUserId'
  | 'subjectUserId'
>;

const iso = (d: Date | null): string | null => d?.toISOString() ?? null;

const stageView = (s: AccessRequestStage): RequestStageView => ({
  stage: s.stage,
  approvers: s.approvers === 'STUDY_APPROVERS' ? 'STUDY_APPROVERS' : 'LAO_STAFF',
  group: s.approverGroup,
  state: (['WAITING', 'OPEN', 'APPROVED', 'REJECTED', 'CLOSED'] as const).find((x) => x === s.state) ?? 'WAITING',
  openedAt: iso(s.openedAt),
  remindAt: iso(s.remindAt),
  deadlineAt: iso(s.deadlineAt),
  escalatedAt: iso(s.escalatedAt),
  decidedAt: iso(s.decidedAt),
  decidedBy: s.decidedBy,
  comment: s.comment,
});

/**
 * True when `actor` may decide the open stage of `row` now (false when none is open): docs/decisions.md
 * "Approval policies", `mayDecideStage` with the row's group, LAOs, studies, requester and subject.
 */
export async function mayDecideOpenStage(deps: Deps, row: ApprovalRow, actor: StageActor): Promise<boolean> {
  if (row.approvalStage === null || row.approvalGroup === null) return false;
  const audience = {
    approvalGroup: row.approvalGroup as ApproverGroup,
    approvalLaoIds: row.approvalLaoIds,
    approvalStudyNames: row.approvalStudyNames,
    requesterUserId: row.requesterUserId,
    subjectUserId: row.subjectUserId,
  };
  return mayDecideStage(prismaRunner(deps.prisma), audience, actor, deps.cfg.ACCESS_REVIEW_STUDY_ROLE);
}

/**
 * The approvals of `rows` for `actor`, by request id (docs/decisions.md "Approval policies"): null for a
 * request with no plan; one read of the stages for all of them.
 */
export async function approvalViewsOf(
  deps: Deps,
  rows: readonly ApprovalRow[],
  actor: StageActor,
): Promise<Map<number, RequestApprovalView | null>> {
  const planned = rows.filter((r) => r.approvalPlan !== null);
  const stages = planned.length
    ? await deps.prisma.accessRequestStage.findMany({
        where: { requestId: { in: planned.map((r) => r.id) } },
        orderBy: [{ requestId: 'asc' }, { stage: 'asc' }],
      })
    : [];
  const views = new Map<number, RequestApprovalView | null>(rows.map((r) => [r.id, null]));
  for (const row of planned) {
    views.set(row.id, {
      stages: stages.filter((s) => s.requestId === row.id).map(stageView),
      currentStage: row.approvalStage,
      mayDecide: await mayDecideOpenStage(deps, row, actor),
    });
  }
  return views;
}

/** The approval of one request for `actor` (approvalViewsOf). */
export async function approvalViewOf(
  deps: Deps,
  row: ApprovalRow,
  actor: StageActor,
): Promise<RequestApprovalView | null> {
  return (await approvalViewsOf(deps, [row], actor)).get(row.id) ?? null;
}

/**
 * A CHANGE or REMOVAL's original access (001 §2.8): the stored access record it was filed against (stored
 * versions never change), null when there is none. It comes with the request, so whoever may read the request
 * (a stage approver without READ_USERS too) sees what it changes without GET /rest/secure/user_access/{id}.
 */
async function originalAccessOf(
  deps: Deps,
  row: Pick<RequestRow, 'requestType' | 'existingUserAccessId'>,
): Promise<UserAccess | null> {
  if (row.requestType === 'NEW' || row.existingUserAccessId === null) return null;
  const record = await deps.prisma.userAccess.findUnique({ where: { id: row.existingUserAccessId } });
  return record ? ((await userAccessViews(deps.prisma, [record]))[0] ?? null) : null;
}

/**
 * The request's full view for `actor`: the wire request (accessModRequestView), its original access, its
 * `approval` (docs/decisions.md "Approval policies") and, with signatures on, its signatures.
 */
export async function requestViewFor(
  deps: Deps,
  row: RequestRow & ApprovalRow,
  actor: StageActor,
): Promise<AccessModRequest> {
  const [approval, originalAccess] = await Promise.all([approvalViewOf(deps, row, actor), originalAccessOf(deps, row)]);
  const view = { ...accessModRequestView(row, temporalUiOf(deps.cfg)), originalAccess, approval };
  return withRequestSignature(deps, 'AccessModRequest', view);
}

/** The fresh full view of request `id` for `actor` (requestViewFor), e.g. once a save is done. */
export async function freshRequestView(deps: Deps, id: number, actor: StageActor): Promise<AccessModRequest> {
  const row = await deps.prisma.accessModRequest.findUniqueOrThrow({
    where: { id },
    include: { subject: true, requester: true },
  });
  return requestViewFor(deps, row, actor);
}

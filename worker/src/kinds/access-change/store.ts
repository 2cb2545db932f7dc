/**
 * The access-change request kind's store for the lifecycle's activities (001 §2.8, §4, §7): the
 * AccessModRequest row, the review's effect on the user's portal roles and access records, the resolution
 * mail, and the reconciler's and digest's reads.
 */
import {
  APPROVAL_TEXTS,
  REQUEST_STATUS_LABELS,
  REQUEST_TYPE_LABELS,
  type RequestStatus,
  isResolved,
} from '@portal/contract';
import { approvalStageCount, recordAudit } from '@portal/db';
import { REVIEW_FAILURES, accessChangeDefinition } from '@portal/workflows';
import { resolvedAs, userResolutionMail } from '../request-mail';
import { personLabel, unresolvedRequest, unstartedQuery, waitingLine, waitingQuery } from '../request-reads';
import { requestRow } from '../request-row';
import type { KindStore } from '../types';
import { applyReviewedAccess, reviewProblems } from './apply';

export const accessChangeStore: KindStore = {
  definition: accessChangeDefinition,
  entityType: 'AccessModRequest',

  ...requestRow({
    table: (tx) => tx.accessModRequest,
    status: (row) => row.requestStatus,
    subjectUserId: (row) => row.subjectUserId,
    // A resolution closes the approval stages still open (docs/decisions.md "Approval policies").
    written: (input) => ({
      requestStatus: input.toStatus as RequestStatus,
      ...(isResolved(input.toStatus as RequestStatus)
        ? { approvalStage: null, approvalGroup: null, approvalDeadline: null }
        : {}),
    }),
  }),

  // Status, comments and ticket were checked against the workflow's state; the roles and records against the rows.
  async check(tx, input, row) {
    if (input.toStatus === 'APPROVED' && !input.approvalOverride?.trim()) {
      const open = await tx.accessModRequest.findUnique({
        where: { id: input.requestId },
        select: { approvalStage: true },
      });
      if (open?.approvalStage) {
        return {
          outcome: 'REFUSED',
          failure: REVIEW_FAILURES.invalid,
          fieldErrors: { requestStatus: ['stagesOpen'] },
          globalErrors: [APPROVAL_TEXTS.stagesOpen],
        };
      }
    }
    return reviewProblems(tx, input, row);
  },

  // What the reviewer applied, on saving whatever the status (001 §2.8); approval by itself grants nothing.
  async effects(tx, input, row) {
    await applyReviewedAccess(tx, input, row);
    if (!isResolved(input.toStatus as RequestStatus)) return;
    const closed = await tx.accessRequestStage.updateMany({
      where: { requestId: input.requestId, state: { in: ['WAITING', 'OPEN'] } },
      data: { state: 'CLOSED' },
    });
    if (closed.count && input.approvalOverride?.trim()) {
      await recordAudit(tx, input.actor, {
        entityType: 'AccessModRequest',
        entityId: input.requestId,
        action: 'APPROVAL_OVERRIDE',
        after: { justification: input.approvalOverride.trim().slice(0, 512), stagesClosed: closed.count },
        workflowId: input.workflowId,
        idempotencyKey: `${input.workflowId}:${input.version}:override`,
      });
    }
  },

  async resolutionMail(prisma, requestId, portalUrl) {
    const request = await prisma.accessModRequest.findUniqueOrThrow({
      where: { id: requestId },
      include: { subject: true },
    });
    const roles = (request.accessControls as Array<{ roleName: string }>).map((c) => c.roleName).join(', ');
    const type = REQUEST_TYPE_LABELS[request.requestType];
    return userResolutionMail(
      request.subject,
      request,
      'access',
      [`Your ${type} request #${request.id} (${roles}) was ${resolvedAs(request)}.`],
      portalUrl,
    );
  },

  async waiting(prisma, before) {
    const rows = await prisma.accessModRequest.findMany({
      ...waitingQuery(unresolvedRequest(), before),
      include: { subject: true },
    });
    return rows.map((r) =>
      waitingLine(accessChangeDefinition, r, REQUEST_STATUS_LABELS[r.requestStatus], personLabel(r.subject)),
    );
  },

  async unstarted(prisma, before) {
    const rows = await prisma.accessModRequest.findMany({
      ...unstartedQuery(before),
      include: { subject: true, requester: true },
    });
    return rows.map((r) => ({
      requestId: r.id,
      subjectUserId: r.subjectUserId,
      requesterUserId: r.requesterUserId,
      subjectLabel: personLabel(r.subject),
      requesterLabel: personLabel(r.requester),
      approvalStages: approvalStageCount(r.approvalPlan),
    }));
  },
};

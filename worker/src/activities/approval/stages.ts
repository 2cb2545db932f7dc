/**
 * The approval stages' activities (docs/decisions.md "Approval policies"; workflows/src/approval/stages.ts):
 * the plan's size, a stage opened, a reminder recorded, a stage escalated, and a stage decision committed in
 * ONE transaction with the request row, its version and the audit row keyed `<workflowId>:<version>`
 * (REQUEST-LIFECYCLE rule 2): a retry finds its own key and answers it; another save under it is SUPERSEDED.
 * The decider's authority is read again inside the transaction (`mayDecideStage`).
 */
import { createHash } from 'node:crypto';
import { stringify } from 'safe-stable-stringify';
import { APPROVAL_TEXTS, SIGNATURE_ERRORS } from '@portal/contract';
import {
  type Prisma,
  type PrismaClient,
  loadRequestDecisions,
  lockUserAccess,
  mayDecideStage,
  prismaRunner,
  recordAudit,
  requestDecisionContent,
  takeSignatureTicket,
  writeSignature,
} from '@portal/db';
import {
  type ApprovalActivities,
  type OpenedStage,
  type StageActivityInput,
  type StageCommitInput,
  type StageCommitResult,
  commitKey,
} from '@portal/workflows';
import {
  type ApprovalSettings,
  closeStages,
  isResolvedStatus,
  lockRequest,
  openStage,
  openedStageOf,
  setOpenStage,
} from './stage-rows';
import { createSendStageMail } from './stage-mail';
import type { MailSettings } from '../../mail/transport';
import type { Transporter } from 'nodemailer';

const SYSTEM = { userId: null, username: 'system' } as const;

/** SHA-256 (hex) of what a stage decision writes: equal for every attempt of one decision. */
const decisionDigest = (i: StageCommitInput): string =>
  createHash('sha256')
    .update(
      stringify({
        requestId: i.requestId,
        stage: i.stage,
        decision: i.decision,
        comment: i.comment,
        actor: i.actor.userId,
      }) ?? '',
    )
    .digest('hex');

export function createApprovalActivities(
  prisma: PrismaClient,
  transport: Transporter,
  mail: MailSettings,
  settings: ApprovalSettings,
): ApprovalActivities {
  const inTx = <T>(work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> =>
    prisma.$transaction(work, { timeout: 20_000 });

  async function loadApprovalPlan({ requestId }: { requestId: number }) {
    const row = await prisma.accessModRequest.findUnique({ where: { id: requestId }, select: { approvalPlan: true } });
    const stages = (row?.approvalPlan as { stages?: unknown[] } | null)?.stages;
    return { stages: Array.isArray(stages) ? stages.length : 0 };
  }

  async function openApprovalStage(input: StageActivityInput): Promise<OpenedStage> {
    return inTx(async (tx) =>
      openStage(tx, await lockRequest(tx, input.requestId), input.stage, settings, { dayMs: input.dayMs }),
    );
  }

  async function recordStageReminder(input: StageActivityInput): Promise<void> {
    await inTx(async (tx) => {
      await lockRequest(tx, input.requestId);
      const changed = await tx.accessRequestStage.updateMany({
        where: { requestId: input.requestId, stage: input.stage, state: 'OPEN', remindedAt: null },
        data: { remindedAt: new Date() },
      });
      if (changed.count === 0) return;
      await recordAudit(tx, SYSTEM, {
        entityType: 'AccessModRequest',
        entityId: input.requestId,
        action: 'APPROVAL_STAGE_REMINDED',
        after: { stage: input.stage },
        workflowId: input.workflowId,
        idempotencyKey: `${input.workflowId}:stage-${input.stage}:reminded`,
      });
    });
  }

  async function escalateApprovalStage(input: StageActivityInput): Promise<OpenedStage> {
    return inTx(async (tx) => {
      const request = await lockRequest(tx, input.requestId);
      const stage = await tx.accessRequestStage.findUniqueOrThrow({
        where: { requestId_stage: { requestId: input.requestId, stage: input.stage } },
      });
      // Decided or resolved meanwhile, or escalated by an earlier attempt: nothing more to write.
      if (request.approvalStage === input.stage && stage.state === 'OPEN' && !stage.escalatedAt) {
        const now = new Date();
        await tx.accessRequestStage.update({
          where: { requestId_stage: { requestId: input.requestId, stage: input.stage } },
          data: { approverGroup: stage.escalateTo, escalatedAt: now },
        });
        await setOpenStage(tx, input.requestId, {
          stage: input.stage,
          group: stage.escalateTo,
          deadlineAt: stage.deadlineAt!,
        });
        await recordAudit(tx, SYSTEM, {
          entityType: 'AccessModRequest',
          entityId: input.requestId,
          action: 'APPROVAL_STAGE_ESCALATED',
          after: { stage: input.stage, from: stage.approvers, to: stage.escalateTo },
          workflowId: input.workflowId,
          idempotencyKey: `${input.workflowId}:stage-${input.stage}:escalated`,
        });
      }
      return (await openedStageOf(tx, input.requestId, input.stage))!;
    });
  }

  async function commitStageDecision(input: StageCommitInput): Promise<StageCommitResult> {
    const key = commitKey(input.workflowId, input.version);
    const digest = decisionDigest(input);
    return inTx(async (tx) => {
      const request = await lockRequest(tx, input.requestId);
      const done = await tx.auditEvent.findUnique({ where: { idempotencyKey: key } });
      if (done) {
        if (done.idempotencyDigest === digest) {
          const next = input.nextStage ? await openedStageOf(tx, input.requestId, input.nextStage) : null;
          return {
            outcome: 'COMMITTED',
            next,
            status: request.requestStatus,
            reviewerComments: request.reviewerComments,
            at: done.at.toISOString(),
          };
        }
        return { outcome: 'SUPERSEDED', committed: committedOf(request) };
      }
      if (request.versionno !== input.version - 1) return { outcome: 'SUPERSEDED', committed: committedOf(request) };
      const refuse = (field: string, reason: string, global: string) => ({
        outcome: 'REFUSED' as const,
        fieldErrors: { [field]: [reason] },
        globalErrors: [global],
      });
      if (isResolvedStatus(request.requestStatus) || request.approvalStage !== input.stage) {
        return refuse('stage', 'invalid', APPROVAL_TEXTS.stageDecided);
      }
      // The row's group is the open stage's (its approvers, or its escalation group once escalated).
      const audience = { ...request, approvalGroup: request.approvalGroup! };
      if (!(await mayDecideStage(prismaRunner(tx), audience, input.actor, settings.reviewerStudyRole))) {
        return refuse('stage', 'forbidden', APPROVAL_TEXTS.notYourStage);
      }
      const ticket = input.signature
        ? await takeSignatureTicket(tx, input.signature.ticketId, input.actor.userId)
        : null;
      if (input.signature && !ticket)
        return { outcome: 'REFUSED', fieldErrors: {}, globalErrors: [SIGNATURE_ERRORS.invalid] };
      const now = new Date();
      await tx.accessRequestStage.update({
        where: { requestId_stage: { requestId: input.requestId, stage: input.stage } },
        data: {
          state: input.decision,
          decidedAt: now,
          decidedByUserId: input.actor.userId,
          decidedBy: input.actor.username,
          comment: input.comment || null,
        },
      });
      const rejected = input.decision === 'REJECTED';
      // A rejection resolves the request; its comment is the reviewer comment the resolution mail tells.
      const reviewerComments = rejected ? input.comment.slice(0, 512) : request.reviewerComments;
      const status = rejected ? 'REJECTED' : request.requestStatus;
      if (rejected) await lockUserAccess(tx, request.subjectUserId);
      // The request's version (and a rejection's status) in the one UPDATE that also writes its open stage.
      const requestColumns = {
        versionno: input.version,
        lastModifiedBy: input.actor.username,
        dchng: now,
        ...(rejected ? { requestStatus: 'REJECTED' as const, reviewerComments } : {}),
      };
      let next: OpenedStage | null = null;
      if (rejected) await closeStages(tx, input.requestId);
      if (input.nextStage && !rejected) {
        next = await openStage(tx, request, input.nextStage, settings, {
          afterDecision: true,
          requestColumns,
          dayMs: input.dayMs,
        });
      } else await setOpenStage(tx, input.requestId, null, requestColumns);
      const audit = await recordAudit(tx, input.actor, {
        entityType: 'AccessModRequest',
        entityId: input.requestId,
        action: rejected ? 'APPROVAL_STAGE_REJECTED' : 'APPROVAL_STAGE_APPROVED',
        before: { requestStatus: request.requestStatus, versionno: request.versionno, stage: input.stage },
        after: {
          requestStatus: status,
          versionno: input.version,
          stage: input.stage,
          decision: input.decision,
          comment: input.comment,
          nextStage: next?.stage ?? null,
        },
        workflowId: input.workflowId,
        idempotencyKey: key,
        idempotencyDigest: digest,
      });
      if (ticket) {
        const facts = (await loadRequestDecisions(tx, 'AccessModRequest', [input.requestId])).get(input.requestId)!;
        await writeSignature(tx, ticket, {
          entityType: 'AccessModRequest',
          entityId: input.requestId,
          entityVersion: input.version,
          content: requestDecisionContent(facts),
        });
      }
      return { outcome: 'COMMITTED', next, status, reviewerComments, at: audit.at.toISOString() };
    });
  }

  return {
    loadApprovalPlan,
    openApprovalStage,
    recordStageReminder,
    escalateApprovalStage,
    commitStageDecision,
    sendStageMail: createSendStageMail(prisma, transport, mail, settings),
  };
}

const committedOf = (r: {
  versionno: number;
  requestStatus: string;
  reviewerComments: string;
  sysaidTicket: string;
  lastModifiedBy: string;
}) => ({
  version: r.versionno,
  status: r.requestStatus,
  reviewerComments: r.reviewerComments,
  sysaidTicket: r.sysaidTicket,
  lastModifiedBy: r.lastModifiedBy,
});

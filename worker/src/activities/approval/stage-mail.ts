/**
 * The approval stages' mails (docs/decisions.md "Approval policies"): when a stage opens, its reminder and its
 * escalation, each mailed to every person who may decide the stage at that moment (`stageApprovers`), at most
 * once per person, stage and reason (outbox key `<workflowId>:stage-<n>:<reason>:<userId>`, fixed Message-ID).
 * An address the server refuses for good is audited MAIL_FAILED and holds no other back (REQUEST-LIFECYCLE
 * rule 5). Texts: the spec has none; written in the style of 001 §8.
 */
import { ApplicationFailure } from '@temporalio/activity';
import type { Transporter } from 'nodemailer';
import { APPROVER_GROUP_LABELS, REQUEST_TYPE_LABELS } from '@portal/contract';
import { type PrismaClient, prismaRunner, stageApprovers } from '@portal/db';
import type { StageActivityInput, StageMailReason } from '@portal/workflows';
import { sendOnce } from '../../mail/outbox';
import { sendEach } from '../../mail/per-recipient';
import { type MailSettings, senderDomain } from '../../mail/transport';
import type { ApprovalSettings } from './stage-rows';

const SUBJECTS: Record<StageMailReason, string> = {
  OPENED: 'waits for your approval',
  REMINDER: 'reminder: waits for your approval',
  ESCALATED: 'escalated to you: waits for approval',
};

export function createSendStageMail(
  prisma: PrismaClient,
  transport: Transporter,
  mail: MailSettings,
  settings: ApprovalSettings,
) {
  return async function sendStageMail(input: StageActivityInput & { reason: StageMailReason }): Promise<void> {
    const request = await prisma.accessModRequest.findUniqueOrThrow({
      where: { id: input.requestId },
      include: { subject: true, stages: { where: { stage: input.stage } } },
    });
    const stage = request.stages[0];
    if (!stage || stage.state !== 'OPEN') return;
    const plan = request.approvalPlan as { stages: unknown[] } | null;
    const audience = { ...request, approvalGroup: stage.approverGroup };
    const people = await stageApprovers(prismaRunner(prisma), audience, settings.reviewerStudyRole);
    const roles = (request.accessControls as Array<{ roleName: string }>).map((c) => c.roleName).join(', ');
    const type = REQUEST_TYPE_LABELS[request.requestType];
    const name = `${request.subject.firstName} ${request.subject.lastName}`;
    const subject = `Portal Gateway: ${type} request #${request.id} ${SUBJECTS[input.reason]}`;
    const link = `${mail.portalUrl}/app/approvals/${request.id}?redirect=true`;
    const domain = senderDomain(mail.from);
    const reasonLine =
      input.reason === 'ESCALATED'
        ? `Its approvers did not decide it by its deadline, so it now waits for ${APPROVER_GROUP_LABELS[stage.approverGroup]}.`
        : input.reason === 'REMINDER'
          ? 'It is still waiting for a decision.'
          : 'It waits for a decision.';
    const result = await sendEach(
      people,
      (person) =>
        sendOnce(prisma, transport, {
          key: `${input.workflowId}:stage-${input.stage}:${input.reason}:${person.id}`,
          messageId: `<${input.workflowId}.stage-${input.stage}.${input.reason.toLowerCase()}.${person.id}@${domain}>`,
          from: mail.from,
          to: person.email,
          subject,
          text: [
            `Dear ${person.firstName} ${person.lastName},`,
            '',
            `Stage ${input.stage} of ${plan?.stages.length ?? input.stage} of the ${type} request #${request.id} for ${name} (${roles}). ${reasonLine}`,
            `Decide it by ${stage.deadlineAt?.toISOString().replace('T', ' ').slice(0, 16)} UTC: ${link}`,
            '',
            'Portal Gateway User Support',
          ].join('\n'),
          audit: {
            actorUsername: 'system',
            entityType: 'AccessModRequest',
            entityId: String(request.id),
            action: 'MAIL_SENT',
            after: { to: person.email, subject, stage: input.stage, reason: input.reason },
            workflowId: input.workflowId,
          },
        }),
      async (person, reason) => {
        await prisma.auditEvent.createMany({
          data: [
            {
              actorUsername: 'system',
              entityType: 'AccessModRequest',
              entityId: String(request.id),
              action: 'MAIL_FAILED',
              after: { to: person.email, stage: input.stage, reason },
              workflowId: input.workflowId,
              idempotencyKey: `${input.workflowId}:stage-${input.stage}:${input.reason}:${person.id}:failed`,
            },
          ],
          skipDuplicates: true,
        });
      },
    );
    // Some went and some failed for now: the retry sends only those (the others are under their keys).
    if (result.deferred) throw ApplicationFailure.retryable(`${result.deferred} stage mails failed for now`);
  };
}

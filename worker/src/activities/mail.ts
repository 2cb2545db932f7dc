/**
 * Mail activity: tells the subject of an access-change request that it was resolved (APPROVED or
 * REJECTED), with the reviewer's comments. At-least-once: a sent mail is recorded in the audit trail under
 * `<workflowId>:mail`, and a retry that finds the record sends nothing.
 */
import nodemailer from 'nodemailer';
import type { PrismaClient } from '@portal/db';
import { REQUEST_STATUS_LABELS, REQUEST_TYPE_LABELS } from '@portal/contract';
import type { ResolutionMailInput } from '@portal/workflows';

export interface MailSettings {
  smtpUrl: string;
  from: string;
  portalUrl: string;
}

export function createSendResolutionMail(prisma: PrismaClient, mail: MailSettings) {
  const transport = nodemailer.createTransport(mail.smtpUrl);
  return async function sendResolutionMail(input: ResolutionMailInput): Promise<void> {
    const key = `${input.workflowId}:mail`;
    if (await prisma.auditEvent.findUnique({ where: { idempotencyKey: key } })) return;
    const request = await prisma.accessModRequest.findUniqueOrThrow({
      where: { id: input.requestId },
      include: { subject: true },
    });
    const status = REQUEST_STATUS_LABELS[request.requestStatus];
    const kind = REQUEST_TYPE_LABELS[request.requestType];
    const roles = (request.accessControls as Array<{ roleName: string }>).map((c) => c.roleName).join(', ');
    const text = [
      `Dear ${request.subject.firstName} ${request.subject.lastName},`,
      '',
      `Your ${kind} request #${request.id} (${roles}) was ${status.toLowerCase()}.`,
      request.reviewerComments ? `Reviewer comments: ${request.reviewerComments}` : '',
      '',
      `You can see your requests under Profile, Requests History: ${mail.portalUrl}/app/profile?tab=history`,
      '',
      'Portal Gateway User Support',
    ]
      .filter((line, i, all) => line !== '' || all[i - 1] !== '')
      .join('\n');
    await transport.sendMail({
      from: mail.from,
      to: request.subject.email,
      subject: `Portal Gateway: your access request #${request.id} was ${status.toLowerCase()}`,
      text,
    });
    await prisma.auditEvent.create({
      data: {
        actorUsername: 'system',
        entityType: 'AccessModRequest',
        entityId: String(request.id),
        action: 'MAIL_SENT',
        after: { to: request.subject.email, status: request.requestStatus },
        workflowId: input.workflowId,
        idempotencyKey: key,
      },
    });
  };
}

/**
 * The resolution mail of every request kind (REQUEST-LIFECYCLE rule 5): the kind writes its text, the
 * outbox sends it at most once per workflow (`<workflowId>:mail`, fixed Message-ID); a resolution without a
 * mail (a deleted registration) sends nothing. When the workflow
 * finally gives up, `recordMailFailure` audits MAIL_FAILED; the request stays resolved.
 */
import type { Transporter } from 'nodemailer';
import type { PrismaClient } from '@portal/db';
import type { NotificationFailureInput, NotificationInput } from '@portal/workflows';
import { storeOf } from '../kinds';
import { sendOnce } from '../mail/outbox';
import { type MailSettings, senderDomain } from '../mail/transport';

export function createSendResolutionMail(prisma: PrismaClient, transport: Transporter, settings: MailSettings) {
  return async function sendResolutionMail(input: NotificationInput): Promise<void> {
    const store = storeOf(input.kind);
    const content = await store.resolutionMail(prisma, input.requestId, settings.portalUrl);
    if (!content) return;
    await sendOnce(prisma, transport, {
      key: `${input.workflowId}:mail`,
      messageId: `<${input.workflowId}.resolution@${senderDomain(settings.from)}>`,
      from: settings.from,
      secretKey: settings.linkKey,
      ...content,
      audit: {
        actorUsername: 'system',
        entityType: store.entityType,
        entityId: String(input.requestId),
        action: 'MAIL_SENT',
        after: { to: content.to, subject: content.subject },
        workflowId: input.workflowId,
      },
    });
  };
}

export function createRecordMailFailure(prisma: PrismaClient) {
  return async function recordMailFailure(input: NotificationFailureInput): Promise<void> {
    await prisma.auditEvent.createMany({
      data: [
        {
          actorUsername: 'system',
          entityType: storeOf(input.kind).entityType,
          entityId: String(input.requestId),
          action: 'MAIL_FAILED',
          after: { reason: input.reason.slice(0, 500) },
          workflowId: input.workflowId,
          idempotencyKey: `${input.workflowId}:mail-failed`,
        },
      ],
      skipDuplicates: true,
    });
  };
}

/**
 * The resolution mail of every request kind (REQUEST-LIFECYCLE rule 5): the kind writes its text, the
 * outbox sends it at most once per workflow (`<workflowId>:mail`, fixed Message-ID); a resolution without a
 * mail (a deleted registration) sends nothing. When the workflow
 * finally gives up, `recordMailFailure` audits MAIL_FAILED, unless the mail went after all; the request stays
 * resolved.
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
      key: resolutionMailKey(input.workflowId),
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

/** The outbox key of a request's resolution mail: one mail per workflow. */
const resolutionMailKey = (workflowId: string): string => `${workflowId}:mail`;

/**
 * Audits a resolution mail the workflow gave up (MAIL_FAILED, once per workflow), unless an attempt still in
 * flight at the deadline delivered it meanwhile: the audit trail then already says MAIL_SENT and stays so.
 */
export function createRecordMailFailure(prisma: PrismaClient) {
  return async function recordMailFailure(input: NotificationFailureInput): Promise<void> {
    await prisma.$transaction(async (tx) => {
      // The outbox row locked: a late attempt marks it SENT (with its MAIL_SENT row) either before this reads it,
      // and MAIL_FAILED is not written, or after this commits, so its MAIL_SENT follows the MAIL_FAILED
      // (docs/decisions.md "Late effects of frozen dependencies").
      const [row] = await tx.$queryRaw<Array<{ status: string }>>`
        SELECT "status"::text AS "status" FROM "OutboundMail" WHERE "key" = ${resolutionMailKey(input.workflowId)}
        FOR UPDATE`;
      if (row?.status === 'SENT') return;
      await tx.auditEvent.createMany({
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
    });
  };
}

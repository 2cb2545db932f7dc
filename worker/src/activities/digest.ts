/**
 * The reviewers' digest (REQUEST-LIFECYCLE.md "Reminders"): one mail listing the requests of every kind
 * waiting longer than the configured time in an unresolved status, sent at most once per schedule run and
 * audited (DIGEST_SENT); nothing is sent when nothing waits.
 */
import type { Transporter } from 'nodemailer';
import type { PrismaClient } from '@portal/db';
import type { DigestRunInput } from '@portal/workflows';
import { KIND_STORES } from '../kinds';
import { sendOnce } from '../mail/outbox';
import { type MailSettings, senderDomain } from '../mail/transport';

export function createSendReviewerDigest(prisma: PrismaClient, transport: Transporter, settings: MailSettings) {
  return async function sendReviewerDigest(input: DigestRunInput): Promise<{ listed: number }> {
    const before = new Date(Date.now() - input.waitingLongerThanMs);
    const stores = Object.values(KIND_STORES);
    const waiting = (await Promise.all(stores.map((s) => s.waiting(prisma, before)))).flat();
    if (waiting.length === 0) return { listed: 0 };
    waiting.sort((a, b) => a.filedAt.getTime() - b.filedAt.getTime());
    const days = (d: Date) => Math.floor((Date.now() - d.getTime()) / 86_400_000);
    const text = [
      `${waiting.length} request(s) have waited for review since before ${before.toISOString().slice(0, 16).replace('T', ' ')} UTC:`,
      '',
      ...waiting.map(
        (w) => `- ${w.label} #${w.requestId} (${w.status}) for ${w.subject}, filed ${days(w.filedAt)} day(s) ago`,
      ),
      '',
      `Open the queue: ${settings.portalUrl}/app/user-requests?redirect=true`,
    ].join('\n');
    await sendOnce(prisma, transport, {
      key: `${input.runKey}:digest`,
      messageId: `<${input.runKey}.digest@${senderDomain(settings.from)}>`,
      from: settings.from,
      to: input.to,
      subject: `Portal Gateway: ${waiting.length} request(s) waiting for review`,
      text,
      audit: {
        actorUsername: 'system',
        entityType: 'ReviewerDigest',
        entityId: input.runKey.slice(0, 64),
        action: 'DIGEST_SENT',
        after: { to: input.to, listed: waiting.map((w) => `${w.label} #${w.requestId}`) },
        workflowId: input.runKey.slice(0, 64),
      },
    });
    return { listed: waiting.length };
  };
}

/**
 * Sends a mail at most once per key (REQUEST-LIFECYCLE rule 5): a "sending" marker (OutboundMail row) is
 * claimed before the send and marked SENT after it, with the audit row, in one transaction. An overlapping
 * attempt that finds a fresh claim backs off (retryable MAIL_IN_FLIGHT) and later finds SENT; a claim older
 * than the lease (its sender died) is taken over. The Message-ID is fixed per key, so in the one case a mail
 * may go twice (a sender that died between the send and the mark) the receiver sees the same message.
 * A rendered mail's secrets (a set-password link) derive from a server key and the row, so that mail's
 * every attempt carries the same ones and a re-send never revokes what the first send delivered (issue 21
 * case 6); the secrets themselves are never stored.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/activity';
import type { Transporter } from 'nodemailer';
import type { Prisma, PrismaClient } from '@portal/db';
import { SMTP_TIMEOUTS } from './transport';

/** A claim older than this (ms) belongs to a sender that is gone: longer than every SMTP timeout together. */
export const CLAIM_LEASE_MS =
  2 * (SMTP_TIMEOUTS.connectionTimeout + SMTP_TIMEOUTS.greetingTimeout + SMTP_TIMEOUTS.socketTimeout);

export const MAIL_IN_FLIGHT = 'MAIL_IN_FLIGHT';

export interface OutboxMail {
  key: string;
  messageId: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  /**
   * Renders the final text after the claim; `secret(purpose)` is the row's secret for `purpose` (`rowSecret`),
   * the same on every attempt, so a render may mint a link from it without revoking an earlier attempt's.
   */
  render?: (secret: (purpose: string) => string) => Promise<string>;
  /** The server key the row's secrets derive from (MAIL_LINK_KEY); required with `render`. */
  secretKey?: string;
  /** The audit row written with the SENT mark (its idempotency key is `key`). */
  audit: Omit<Prisma.AuditEventCreateManyInput, 'idempotencyKey'>;
}

/**
 * The secret of `purpose` for the outbox row keyed `key` and created at `createdAt` (its stored text, so
 * every process reads the same): HMAC-SHA-256 under the server key `secretKey`, base64url (43 characters).
 * The creation time keeps a key reused after a database restore from repeating an older row's secrets.
 */
export function rowSecret(secretKey: string, row: { key: string; createdAt: string }, purpose: string): string {
  return createHmac('sha256', secretKey)
    .update(JSON.stringify(['outbox-row-secret', purpose, row.key, row.createdAt]))
    .digest('base64url');
}

/**
 * Sends `mail` unless it was sent under its key.
 * @returns 'SENT' when this call sent it, 'ALREADY_SENT' when an earlier one did.
 * @throws ApplicationFailure MAIL_IN_FLIGHT (retryable) while another attempt holds a fresh claim; the
 *   transport's error when the SMTP server fails (retryable; the claim is released).
 */
export async function sendOnce(
  prisma: PrismaClient,
  transport: Transporter,
  mail: OutboxMail,
): Promise<'SENT' | 'ALREADY_SENT'> {
  const token = randomUUID();
  const claimed = await prisma.$queryRaw<Array<{ key: string; createdAt: string }>>`
    INSERT INTO "OutboundMail" ("key", "messageId", "status", "claimedAt", "claimToken")
    VALUES (${mail.key}, ${mail.messageId}, 'SENDING', now(), ${token})
    ON CONFLICT ("key") DO UPDATE
      SET "claimedAt" = now(), "claimToken" = EXCLUDED."claimToken", "attempts" = "OutboundMail"."attempts" + 1
      WHERE "OutboundMail"."status" = 'SENDING'
        AND "OutboundMail"."claimedAt" < now() - make_interval(secs => ${CLAIM_LEASE_MS / 1000})
    RETURNING "key", to_char("createdAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS "createdAt"`;
  if (claimed.length === 0) {
    const row = await prisma.outboundMail.findUnique({ where: { key: mail.key } });
    if (row?.status === 'SENT') return 'ALREADY_SENT';
    throw ApplicationFailure.retryable(`another attempt is sending ${mail.key}`, MAIL_IN_FLIGHT);
  }
  const row = claimed[0]!;
  try {
    const text = mail.render ? await mail.render((purpose) => rowSecret(secretKeyOf(mail), row, purpose)) : mail.text;
    await transport.sendMail({
      from: mail.from,
      to: mail.to,
      subject: mail.subject,
      text,
      messageId: mail.messageId,
    });
  } catch (err) {
    // Released so the next attempt need not wait for the lease.
    await prisma.outboundMail.updateMany({
      where: { key: mail.key, claimToken: token, status: 'SENDING' },
      data: { claimedAt: new Date(0) },
    });
    throw err;
  }
  await prisma.$transaction([
    prisma.outboundMail.updateMany({
      where: { key: mail.key },
      data: { status: 'SENT', sentAt: new Date() },
    }),
    prisma.auditEvent.createMany({ data: [{ ...mail.audit, idempotencyKey: mail.key }], skipDuplicates: true }),
  ]);
  return 'SENT';
}

function secretKeyOf(mail: OutboxMail): string {
  if (!mail.secretKey) throw new Error(`outbox mail ${mail.key} renders secrets but has no secretKey`);
  return mail.secretKey;
}

/**
 * The access expiry's activities (issue 25 "Time-bound access"; workflows/src/access-expiry). Each is idempotent
 * against PostgreSQL:
 * - `expireAccessBatch` removes records past their end date with `expireAccess` of the one access-records writer
 *   (the user's lock, a re-read under it, the versioned removal, single sign-on revocation, ACCESS_EXPIRED);
 * - `sendAccessExpiredMails` mails the removals still marked pending (`expiredAt` without `expiryMailSentAt`);
 * - `sendAccessExpiryNotices` sends the one notice per record chain and end date, and marks the record.
 * Mails go through the outbox (`sendOnce`, keyed per record), so a retried or overlapping run sends each once;
 * one person's mail failing holds no other back, and one the server refuses for good is audited MAIL_FAILED
 * and settled (`sendEach`).
 */
import { log } from '@temporalio/activity';
import type { Transporter } from 'nodemailer';
import type { AccessExpiryActivities, ExpiryBatchInput, ExpiryNoticeInput } from '@portal/workflows';
import { addDays, dayIn, endDayOf } from '@portal/contract';
import { type Prisma, type PrismaClient, expireAccess } from '@portal/db';
import { sendOnce } from '../mail/outbox';
import { sendEach } from '../mail/per-recipient';
import { type MailSettings, senderDomain } from '../mail/transport';

/** Who the expiry writes as (the records' lastModifiedBy, the audit rows' actor). */
export const EXPIRY_WRITER = { username: 'system' } as const;

/** A day 'YYYY-MM-DD' as the `date` column takes it. */
const dateColumn = (day: string) => new Date(`${day}T00:00:00Z`);

/** Where the person asks to keep an access: the own modify-access form of that record (an extension request). */
export const extensionLink = (portalUrl: string, portalUserId: number, accessId: number): string =>
  `${portalUrl.replace(/\/$/, '')}/app/profile/request-new-or-modified-access?accessRequestType=UPDATE&userId=${portalUserId}&existingUserAccessId=${accessId}`;

export function createAccessExpiryActivities(
  prisma: PrismaClient,
  transport: Transporter,
  settings: MailSettings,
): AccessExpiryActivities {
  const domain = senderDomain(settings.from);

  async function expireAccessBatch(
    input: ExpiryBatchInput,
  ): Promise<{ removed: number; failedUserIds: number[]; more: boolean }> {
    const today = dayIn(input.timeZone, new Date(input.now));
    const skip = input.skipUserIds ?? [];
    const due = await prisma.userAccess.findMany({
      where: {
        inactive: false,
        accessEndDate: { lt: dateColumn(today) },
        ...(skip.length ? { portalUserId: { notIn: skip } } : {}),
      },
      select: { portalUserId: true },
      orderBy: [{ accessEndDate: 'asc' }, { id: 'asc' }],
      take: input.limit,
    });
    let removed = 0;
    let done = 0;
    const failedUserIds: number[] = [];
    let lastError: unknown;
    for (const portalUserId of new Set(due.map((d) => d.portalUserId))) {
      try {
        const expired = await prisma.$transaction(
          (tx) => expireAccess(tx, portalUserId, today, EXPIRY_WRITER, input.runKey.slice(0, 64)),
          { timeout: 20_000, maxWait: 10_000 },
        );
        removed += expired.length;
        done += 1;
      } catch (err) {
        // One person's records must not hold every other removal back: left to the next run.
        failedUserIds.push(portalUserId);
        lastError = err;
        log.warn('access expiry: removal failed', { portalUserId, error: String(err) });
      }
    }
    // Nobody removed and someone failed: most likely PostgreSQL itself, which the activity's retry waits for.
    if (failedUserIds.length && !done) throw lastError;
    return { removed, failedUserIds, more: due.length === input.limit };
  }

  /** Audits a mail the server refused for good (MAIL_FAILED, once per outbox key) and settles its row. */
  async function recordRefusal(
    key: string,
    row: { id: number; portalUserId: number; roleName: string; user: { email: string } },
    reason: string,
    settle: Prisma.UserAccessUpdateManyArgs['data'],
  ): Promise<void> {
    await prisma.$transaction([
      prisma.auditEvent.createMany({
        data: [
          {
            actorUsername: EXPIRY_WRITER.username,
            entityType: 'UserAccess',
            entityId: String(row.portalUserId),
            action: 'MAIL_FAILED',
            after: { accessId: row.id, roleName: row.roleName, to: row.user.email, reason },
            idempotencyKey: `${key}:failed`,
          },
        ],
        skipDuplicates: true,
      }),
      prisma.userAccess.updateMany({ where: { id: row.id }, data: settle }),
    ]);
  }

  async function sendAccessExpiredMails(input: { limit: number }): Promise<{ sent: number; more: boolean }> {
    const pending = await prisma.userAccess.findMany({
      where: { expiredAt: { not: null }, expiryMailSentAt: null },
      include: { user: true },
      orderBy: { id: 'asc' },
      take: input.limit,
    });
    const keyOf = (row: (typeof pending)[number]) => `access-expired:${row.priorAccessControlId ?? row.id}:mail`;
    // One refused address must not hold every later person's mail back (it would come first in every batch).
    const done = await sendEach(
      pending,
      async (row) => {
        const end = endDayOf(row.accessEndDate);
        await sendOnce(prisma, transport, {
          key: keyOf(row),
          messageId: `<access-expired.${row.id}@${domain}>`,
          from: settings.from,
          to: row.user.email,
          subject: `Portal Gateway: your ${row.roleName} access has ended`,
          text: [
            `Dear ${row.user.firstName} ${row.user.lastName},`,
            '',
            `Your access as ${row.roleName} ended on ${end}, its end date, and has been removed.`,
            'If you still need it, request it again:',
            `${settings.portalUrl.replace(/\/$/, '')}/app/profile/request-new-or-modified-access?accessRequestType=NEW&userId=${row.portalUserId}`,
          ].join('\n'),
          audit: {
            actorUsername: EXPIRY_WRITER.username,
            entityType: 'UserAccess',
            entityId: String(row.portalUserId),
            action: 'ACCESS_EXPIRED_MAIL_SENT',
            after: { accessId: row.id, roleName: row.roleName, accessEndDate: end },
          },
        });
        await prisma.userAccess.update({ where: { id: row.id }, data: { expiryMailSentAt: new Date() } });
      },
      // Settled as if sent: `expiryMailSentAt` ends the row's turn, the MAIL_FAILED row says why.
      (row, reason) => recordRefusal(keyOf(row), row, reason, { expiryMailSentAt: new Date() }),
    );
    return { sent: done.sent, more: pending.length === input.limit };
  }

  async function sendAccessExpiryNotices(input: ExpiryNoticeInput): Promise<{ sent: number; more: boolean }> {
    const today = dayIn(input.timeZone, new Date(input.now));
    const due = await prisma.userAccess.findMany({
      where: {
        inactive: false,
        expiryNoticeSentAt: null,
        accessEndDate: { gte: dateColumn(today), lte: dateColumn(addDays(today, input.noticeDays)) },
      },
      include: { user: true },
      orderBy: [{ accessEndDate: 'asc' }, { id: 'asc' }],
      take: input.limit,
    });
    const keyOf = (row: (typeof due)[number]) =>
      `access-expiry-notice:${row.originalRevisionNumber ?? row.id}:${endDayOf(row.accessEndDate)}`;
    const done = await sendEach(
      due,
      async (row) => {
        const end = endDayOf(row.accessEndDate)!;
        // One notice per record chain and end date: a later version keeping the end date finds this key sent.
        await sendOnce(prisma, transport, {
          key: keyOf(row),
          messageId: `<access-expiry-notice.${row.originalRevisionNumber ?? row.id}.${end}@${domain}>`,
          from: settings.from,
          to: row.user.email,
          subject: `Portal Gateway: your ${row.roleName} access ends on ${end}`,
          text: [
            `Dear ${row.user.firstName} ${row.user.lastName},`,
            '',
            `Your access as ${row.roleName} ends at the end of ${end} (${input.timeZone}).`,
            'To keep it, request an extension (a new end date, reviewed like any access change):',
            extensionLink(settings.portalUrl, row.portalUserId, row.id),
          ].join('\n'),
          audit: {
            actorUsername: EXPIRY_WRITER.username,
            entityType: 'UserAccess',
            entityId: String(row.portalUserId),
            action: 'ACCESS_EXPIRY_NOTICE_SENT',
            after: { accessId: row.id, roleName: row.roleName, accessEndDate: end },
          },
        });
        await prisma.userAccess.updateMany({
          where: { id: row.id, expiryNoticeSentAt: null },
          data: { expiryNoticeSentAt: new Date() },
        });
      },
      (row, reason) => recordRefusal(keyOf(row), row, reason, { expiryNoticeSentAt: new Date() }),
    );
    return { sent: done.sent, more: due.length === input.limit };
  }

  return { expireAccessBatch, sendAccessExpiredMails, sendAccessExpiryNotices };
}

/**
 * The mails of an access review campaign (issue 25: "mails each reviewer once, sends reminders on durable
 * timers … the person mailed"), all through the outbox (`sendOnce`: one mail per key, whatever the retries):
 * - reviewers, read at call time: the LAO staff (active records of ACCESS_REVIEW_STUDY_ROLE) whose LAOs
 *   overlap an item's pool, and User Support (WRITE_USERS or ADMIN through an active portal role) when there
 *   are User Support items, never for items only about themselves; a reminder goes only to those with
 *   undecided items. Keys `access-review:<id>:invite:<userId>`, `access-review:<id>:reminder:<n>:<userId>`.
 * - the removed people: one mail per person and campaign, key `access-review:<id>:removed-mail:<userId>`.
 * A mail the workflow gives up is audited MAIL_FAILED (`recordAccessReviewMailFailures`).
 */
import { ApplicationFailure } from '@temporalio/activity';
import type { Transporter } from 'nodemailer';
import type { AccessReviewSettings } from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import type {
  AccessReviewActivities,
  MailFailureInput,
  ReviewerMailInput,
  ReviewerMailKind,
  ReviewerMailResult,
} from '@portal/workflows';
import { sendOnce } from '../mail/outbox';
import { sendEach } from '../mail/per-recipient';
import { type MailSettings, senderDomain } from '../mail/transport';
import { campaignOf } from './access-review-audit';

type MailActivities = Pick<
  AccessReviewActivities,
  'sendAccessReviewReviewerMails' | 'sendAccessReviewRemovalMails' | 'recordAccessReviewMailFailures'
>;

/** Removed people mailed per activity (each mail is an SMTP round trip within the activity's minute). */
const REMOVAL_MAILS_PER_CALL = 50;

interface Reviewer {
  id: number;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  items: number;
}

/** Where a reviewer decides: the Access Reviews screen of that campaign. */
export const accessReviewLink = (portalUrl: string, campaignId: number): string =>
  `${portalUrl.replace(/\/$/, '')}/app/access-reviews?campaignId=${campaignId}`;

const reviewerMailKey = (campaignId: number, kind: ReviewerMailKind, round: number, userId: number) =>
  kind === 'invite'
    ? `access-review:${campaignId}:invite:${userId}`
    : `access-review:${campaignId}:reminder:${round}:${userId}`;

const removalMailKey = (campaignId: number, userId: number) => `access-review:${campaignId}:removed-mail:${userId}`;

/** A mail given up, as its MAIL_FAILED row names it. */
interface MailFailure {
  key: string;
  entityType: 'AccessReview' | 'UserAccess';
  entityId: string;
  after: { [k: string]: string | number };
}

/** The ApplicationFailure type of a chunk whose mails failed for now (retried). */
const MAIL_DEFERRED = 'MAIL_DEFERRED';

const reviewerFailure = (
  input: { campaignId: number; kind: ReviewerMailKind | 'removal'; round: number },
  r: Reviewer,
  reason: string,
): MailFailure => ({
  key: reviewerMailKey(input.campaignId, input.kind === 'invite' ? 'invite' : 'reminder', input.round, r.id),
  entityType: 'AccessReview',
  entityId: String(input.campaignId),
  after: { kind: input.kind, round: input.round, userId: r.id, to: r.email, reason },
});

const removalFailure = (
  campaignId: number,
  p: { portalUserId: number; email?: string },
  reason: string,
): MailFailure => ({
  key: removalMailKey(campaignId, p.portalUserId),
  entityType: 'UserAccess',
  entityId: String(p.portalUserId),
  after: { campaignId, ...(p.email ? { to: p.email } : {}), reason },
});

/** A deadline as mails show it: '2026-12-10 13:05 UTC'. */
const shownDeadline = (d: Date | null) => (d ? `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC` : 'its close');

export function createAccessReviewMailActivities(
  prisma: PrismaClient,
  transport: Transporter,
  settings: MailSettings,
  review: AccessReviewSettings,
): MailActivities {
  const domain = senderDomain(settings.from);

  /**
   * The campaign's reviewers above `afterUserId` in id order (up to `limit`), each with the number of items
   * they may decide (undecided ones only with `undecidedOnly`), those with none left out.
   */
  const reviewersOf = (campaignId: number, undecidedOnly: boolean, afterUserId: number, limit: number) =>
    prisma.$queryRaw<Reviewer[]>`
      WITH staff AS (
        SELECT ua."portalUserId" AS id, array_agg(DISTINCT lao) AS laos
          FROM "UserAccess" ua CROSS JOIN LATERAL unnest(ua."laoIds") AS lao
         WHERE ua.inactive = false AND ua."roleName" = ${review.ACCESS_REVIEW_STUDY_ROLE}
         GROUP BY ua."portalUserId"
      ), support AS (
        SELECT DISTINCT pur."portalUserId" AS id
          FROM "PortalUserRole" pur JOIN "PortalRole" r ON r.id = pur."portalRoleId"
         WHERE NOT r.inactive AND r.permissions && ARRAY['WRITE_USERS', 'ADMIN']::"Permission"[]
      ), candidates AS (
        SELECT u.id, u.username, u.email, u."firstName", u."lastName", s.laos, (sp.id IS NOT NULL) AS support
          FROM "PortalUser" u LEFT JOIN staff s ON s.id = u.id LEFT JOIN support sp ON sp.id = u.id
         WHERE NOT u.inactive AND (s.id IS NOT NULL OR sp.id IS NOT NULL) AND u.id > ${afterUserId}
      )
      SELECT c.id, c.username, c.email, c."firstName", c."lastName", n.items
        FROM candidates c CROSS JOIN LATERAL (
          SELECT count(*)::int AS items FROM "AccessReviewItem" i
           WHERE i."campaignId" = ${campaignId} AND i."portalUserId" <> c.id
             AND (NOT ${undecidedOnly} OR i.decision IS NULL)
             AND ((c.support AND coalesce(cardinality(i."reviewLaoIds"), 0) = 0)
               OR (c.laos IS NOT NULL AND i."reviewLaoIds" && c.laos))
        ) n
       WHERE n.items > 0
       ORDER BY c.id
       LIMIT ${limit}`;

  async function sendAccessReviewReviewerMails(input: ReviewerMailInput): Promise<ReviewerMailResult> {
    const campaign = await campaignOf(prisma, input.campaignId);
    const reminder = input.kind === 'reminder';
    const reviewers = await reviewersOf(input.campaignId, reminder, input.afterUserId, input.limit);
    const link = accessReviewLink(settings.portalUrl, input.campaignId);
    let sent = 0;
    // A reviewer whose address the server refuses for good is audited at once and holds no other back; one
    // that fails for now fails the chunk, whose retry finds the others sent.
    const done = await sendEach(
      reviewers,
      async (r) => {
        const key = reviewerMailKey(input.campaignId, input.kind, input.round, r.id);
        const subject = reminder
          ? `Portal Gateway: reminder: access review ${campaign.name} closes on ${shownDeadline(campaign.deadline)}`
          : `Portal Gateway: access review ${campaign.name} needs your decisions`;
        const outcome = await sendOnce(prisma, transport, {
          key,
          messageId: `<${key.replaceAll(':', '.')}@${domain}>`,
          from: settings.from,
          to: r.email,
          subject,
          text: [
            `Dear ${r.firstName} ${r.lastName},`,
            '',
            reminder
              ? `The access review campaign ${campaign.name} still has ${r.items} access record(s) waiting for your decision.`
              : `You are a reviewer in the access review campaign ${campaign.name}: ${r.items} access record(s) wait for your decision (Keep or Remove).`,
            `The campaign closes on ${shownDeadline(campaign.deadline)}; records nobody decided are then given its default (${campaign.defaultDecision === 'KEEP' ? 'kept' : 'removed'}).`,
            '',
            'Review them here:',
            link,
          ].join('\n'),
          audit: {
            actorUsername: 'system',
            entityType: 'AccessReview',
            entityId: String(input.campaignId),
            action: 'MAIL_SENT',
            after: { kind: input.kind, round: input.round, userId: r.id, to: r.email, subject, items: r.items },
            workflowId: campaign.workflowId,
          },
        });
        if (outcome === 'SENT') sent += 1;
      },
      async (r, reason) => {
        await auditFailures(campaign.workflowId, [reviewerFailure(input, r, reason)]);
      },
    );
    if (done.deferred)
      throw ApplicationFailure.retryable(`${done.deferred} reviewer mail(s) not sent yet`, MAIL_DEFERRED);
    return { sent, givenUp: done.givenUp, reviewers: reviewers.length, lastUserId: reviewers.at(-1)?.id ?? null };
  }

  async function sendAccessReviewRemovalMails(input: { campaignId: number; limit: number }) {
    const campaign = await campaignOf(prisma, input.campaignId);
    const limit = Math.min(input.limit, REMOVAL_MAILS_PER_CALL);
    const people = await prisma.$queryRaw<Array<{ portalUserId: number; email: string }>>`
      SELECT DISTINCT ON ("portalUserId") "portalUserId", email FROM "AccessReviewItem"
       WHERE "campaignId" = ${input.campaignId} AND outcome = 'REMOVED' AND "removalMailSentAt" IS NULL
       ORDER BY "portalUserId" LIMIT ${limit}`;
    let sent = 0;
    const settle = (portalUserId: number) =>
      prisma.accessReviewItem.updateMany({
        where: { campaignId: input.campaignId, portalUserId, outcome: 'REMOVED', removalMailSentAt: null },
        data: { removalMailSentAt: new Date() },
      });
    const done = await sendEach(
      people,
      async ({ portalUserId }) => {
        const items = await prisma.accessReviewItem.findMany({
          where: { campaignId: input.campaignId, portalUserId, outcome: 'REMOVED' },
          orderBy: { roleName: 'asc' },
        });
        const person = items[0]!;
        const key = removalMailKey(input.campaignId, portalUserId);
        const roleNames = [...new Set(items.map((i) => i.roleName))];
        const subject = `Portal Gateway: your access was removed in the access review ${campaign.name}`;
        const outcome = await sendOnce(prisma, transport, {
          key,
          messageId: `<${key.replaceAll(':', '.')}@${domain}>`,
          from: settings.from,
          to: person.email,
          subject,
          text: [
            `Dear ${person.firstName} ${person.lastName},`,
            '',
            `The access review campaign ${campaign.name} removed your access as: ${roleNames.join(', ')}.`,
            'If you still need it, request it again:',
            `${settings.portalUrl.replace(/\/$/, '')}/app/profile/request-new-or-modified-access?accessRequestType=NEW&userId=${portalUserId}`,
          ].join('\n'),
          audit: {
            actorUsername: 'system',
            entityType: 'UserAccess',
            entityId: String(portalUserId),
            action: 'ACCESS_REVIEW_REMOVAL_MAIL_SENT',
            after: { campaignId: input.campaignId, campaignName: campaign.name, roleNames },
            workflowId: campaign.workflowId,
          },
        });
        if (outcome === 'SENT') sent += 1;
        await settle(portalUserId);
      },
      // Refused for good: audited, and settled as if sent (the MAIL_FAILED row says why), so no attempt repeats it.
      async (p, reason) => {
        await auditFailures(campaign.workflowId, [removalFailure(input.campaignId, p, reason)]);
        await settle(p.portalUserId);
      },
    );
    // A person deferred (SMTP failing for now) is still pending: the next call takes them again.
    return { sent, givenUp: done.givenUp, more: people.length === limit || done.deferred > 0 };
  }

  /** Audits MAIL_FAILED once per mail given up (key: the mail's key + ':failed'); @returns how many. */
  async function recordAccessReviewMailFailures(input: MailFailureInput): Promise<{ failed: number }> {
    const campaign = await campaignOf(prisma, input.campaignId);
    const reason = input.reason.slice(0, 500);
    const rows: MailFailure[] = [];
    if (input.kind === 'removal') {
      const pending = await prisma.$queryRaw<Array<{ portalUserId: number; email: string }>>`
        SELECT DISTINCT ON ("portalUserId") "portalUserId", email FROM "AccessReviewItem"
         WHERE "campaignId" = ${input.campaignId} AND outcome = 'REMOVED' AND "removalMailSentAt" IS NULL
         ORDER BY "portalUserId"`;
      rows.push(...pending.map((p) => removalFailure(input.campaignId, p, reason)));
    } else {
      for (let after = input.afterUserId; ;) {
        const chunk = await reviewersOf(input.campaignId, input.kind === 'reminder', after, 500);
        rows.push(...chunk.map((r) => reviewerFailure(input, r, reason)));
        if (chunk.length < 500) break;
        after = chunk.at(-1)!.id;
      }
    }
    const sent = new Set(
      (
        await prisma.outboundMail.findMany({
          where: { key: { in: rows.map((r) => r.key) }, status: 'SENT' },
          select: { key: true },
        })
      ).map((m) => m.key),
    );
    const failed = rows.filter((r) => !sent.has(r.key));
    await auditFailures(campaign.workflowId, failed);
    return { failed: failed.length };
  }

  /** Writes MAIL_FAILED once per mail (key: the mail's key + ':failed'). */
  const auditFailures = (workflowId: string, failures: MailFailure[]) =>
    prisma.auditEvent.createMany({
      data: failures.map((r) => ({
        actorUsername: 'system',
        entityType: r.entityType,
        entityId: r.entityId,
        action: 'MAIL_FAILED',
        after: r.after,
        workflowId,
        idempotencyKey: `${r.key}:failed`,
      })),
      skipDuplicates: true,
    });

  return { sendAccessReviewReviewerMails, sendAccessReviewRemovalMails, recordAccessReviewMailFailures };
}

/**
 * Shared setup of the access review API tests (issue 25): reviewers who sign in (User Support, LAO staff of an
 * LAO of the test's own), people with access records, and OPEN campaigns whose items are written directly with
 * Prisma (as the campaign workflow's snapshot would: one item per record, pooled to the record's LAOs), so the
 * reviewer routes are tested without depending on the workflow. LAO ids are the test's own (random), so no
 * other test's campaign or reviewer meets them.
 */
import crypto from 'node:crypto';
import type { AccessReviewCampaign, PortalUser, PrismaClient, UserAccess } from '@portal/db';
import { accessReviewWorkflowId } from '@portal/workflows';
import { grant } from '../access-review/support';
import { type TestUser, createTestUser } from '../auth-helpers';
import type { TestApi } from '../harness';

export const REVIEWER_ROLE = 'LAO Staff';

/** A text unique to the test (an LAO id, a role name, a campaign name). */
export const unique = (prefix: string): string => `${prefix}${crypto.randomBytes(3).toString('hex').toUpperCase()}`;

/** An active access record of `user` (the campaign workflow's tests' own helper). */
export { grant };

/** A person who signs in: a Network User holding the reviewer study role for `laoIds`. */
export async function laoReviewer(api: TestApi, tag: string, laoIds: string[]): Promise<TestUser> {
  const u = await createTestUser(api, tag);
  await grant(api.prisma, u.user, REVIEWER_ROLE, { laoIds });
  return u;
}

/** A person who never signs in (no directory entry), with a last name to order by. */
export async function person(prisma: PrismaClient, lastName: string): Promise<PortalUser> {
  const username = unique(`arp${lastName.toLowerCase().slice(0, 12)}`).toLowerCase();
  return prisma.portalUser.create({
    data: { username, firstName: 'Pat', lastName, email: `${username}@it.portal.test` },
  });
}

/**
 * An OPEN campaign holding one item per record of `records` (pooled to the record's LAOs, or to User Support
 * for a USER_SUPPORT campaign), filed and "started" (workflowStartedAt set, so no reconciler starts it).
 */
export async function openCampaign(
  prisma: PrismaClient,
  records: UserAccess[],
  opts: { reviewers?: 'LAO_STAFF' | 'USER_SUPPORT'; status?: 'STARTING' | 'OPEN' | 'CLOSED'; name?: string } = {},
): Promise<AccessReviewCampaign> {
  const [{ id }] = await prisma.$queryRaw<[{ id: number }]>`
    SELECT nextval(pg_get_serial_sequence('"AccessReviewCampaign"', 'id'))::int AS id`;
  const reviewers = opts.reviewers ?? 'LAO_STAFF';
  const campaign = await prisma.accessReviewCampaign.create({
    data: {
      id,
      workflowId: accessReviewWorkflowId(id),
      name: opts.name ?? unique('Campaign '),
      scope: { systemAccessIds: [], roleNames: [], laoIds: [] },
      reviewers,
      durationDays: 14,
      reminderEveryDays: 0,
      defaultDecision: 'KEEP',
      status: opts.status ?? 'OPEN',
      createdByUsername: 'admin',
      workflowStartedAt: new Date(),
      openedAt: new Date(),
      deadline: new Date(Date.now() + 14 * 86_400_000),
      itemsTotal: records.length,
    },
  });
  const people = new Map(
    (await prisma.portalUser.findMany({ where: { id: { in: records.map((r) => r.portalUserId) } } })).map((p) => [
      p.id,
      p,
    ]),
  );
  await prisma.accessReviewItem.createMany({
    data: records.map((r) => {
      const p = people.get(r.portalUserId)!;
      return {
        campaignId: id,
        accessId: r.id,
        portalUserId: p.id,
        username: p.username,
        firstName: p.firstName,
        lastName: p.lastName,
        email: p.email,
        roleName: r.roleName,
        siteCodes: r.siteCodes,
        laoIds: r.laoIds,
        studyNames: r.studyNames,
        systemAccessIds: r.systemAccessIds,
        accessEndDate: r.accessEndDate,
        reviewLaoIds: reviewers === 'LAO_STAFF' ? r.laoIds : [],
      };
    }),
  });
  return campaign;
}

/** The items of `campaignId` by access record id. */
export async function itemsByAccess(prisma: PrismaClient, campaignId: number) {
  const items = await prisma.accessReviewItem.findMany({ where: { campaignId } });
  return new Map(items.map((i) => [i.accessId, i]));
}

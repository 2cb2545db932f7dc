/**
 * Opening an access review campaign (issue 25) refreshes the items' statistics, and its VACUUM is left running
 * in the background. A later campaign's open must not wait behind it: ANALYZE and VACUUM of one table exclude
 * each other, and a VACUUM of millions of items may run for minutes. Here another connection holds the lock
 * a VACUUM holds, and the open must still finish, well inside its deadline.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import pg from 'pg';
import { type PrismaClient, poolConfigFromUrl } from '@portal/db';
import { createAccessReviewSnapshotActivities } from '../../../worker/src/activities/access-review-snapshot';
import { stackEnv, testPrisma } from '../fixtures';
import { fileCampaign } from './support';

let prisma: PrismaClient;

beforeAll(() => {
  prisma = testPrisma();
});
afterAll(async () => {
  await prisma?.$disconnect();
});

it('opens a campaign while the items table is held by a VACUUM', async () => {
  const campaign = await fileCampaign(prisma);
  const holder = new pg.Client(poolConfigFromUrl(stackEnv().DATABASE_URL!));
  await holder.connect();
  try {
    // The lock a VACUUM (and an ANALYZE) takes, held as a long VACUUM would hold it.
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE "AccessReviewItem" IN SHARE UPDATE EXCLUSIVE MODE');
    const { openAccessReview } = createAccessReviewSnapshotActivities(prisma);
    const opened = openAccessReview({
      campaignId: campaign.id,
      openedAt: new Date().toISOString(),
      deadline: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const late = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 10_000).unref());
    expect(await Promise.race([opened, late])).toMatchObject({ status: 'OPEN' });
  } finally {
    await holder.query('ROLLBACK');
    await holder.end();
  }
  expect((await prisma.accessReviewCampaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).toBe('OPEN');
});

/**
 * Rule 1 ("commit, then start") for access review campaigns (issue 25): the API files the campaign row, then
 * starts `access-review-<id>` and sets `workflowStartedAt`; a scheduled run files it and starts it as a child.
 * When that start failed (Temporal away, a crash between commit and start), the reconciler starts every
 * campaign still unmarked after the grace period through the same typed start (`accessReviewStart`,
 * `startOnce`), marks it and audits WORKFLOW_RECONCILED. Safe from several workers at once (USE_EXISTING; the
 * mark and the audit row are idempotent).
 */
import type { Client } from '@temporalio/client';
import type { PrismaClient } from '@portal/db';
import { accessReviewInputOf, accessReviewStart, startOnce } from '@portal/workflows';

/** Campaigns filed before `before` whose workflow start was never confirmed, 100 by id. */
export const unstartedAccessReviews = (prisma: PrismaClient, before: Date) =>
  prisma.accessReviewCampaign.findMany({
    where: { workflowStartedAt: null, sysdat: { lt: before } },
    select: {
      id: true,
      workflowId: true,
      name: true,
      durationDays: true,
      reminderEveryDays: true,
      createdByUsername: true,
      scheduleId: true,
    },
    orderBy: { id: 'asc' },
    take: 100,
  });

export interface AccessReviewStarter {
  prisma: PrismaClient;
  client: Client;
  taskQueue: string;
  /** The campaign's mail deadline (MAIL_DEADLINE), as filing passes it. */
  notificationDeadline?: string;
  log?: (message: string) => void;
}

/** Starts one unstarted campaign's workflow, marks it and audits the repair. @returns the workflow id. */
export async function startUnstartedAccessReview(
  opts: AccessReviewStarter,
  row: Awaited<ReturnType<typeof unstartedAccessReviews>>[number],
): Promise<string> {
  const startOpts = {
    name: row.name,
    durationDays: row.durationDays,
    reminderEveryDays: row.reminderEveryDays,
    createdByLabel: row.scheduleId ? `recurring access review #${row.scheduleId}` : row.createdByUsername,
    mailDeadline: opts.notificationDeadline,
  };
  const start = accessReviewStart(row.id, startOpts, accessReviewInputOf(row.id, startOpts));
  const outcome = await startOnce(opts.client, opts.taskQueue, start);
  await opts.prisma.$transaction(async (tx) => {
    await tx.accessReviewCampaign.updateMany({
      where: { id: row.id, workflowStartedAt: null },
      data: { workflowStartedAt: new Date() },
    });
    await tx.auditEvent.createMany({
      data: [
        {
          actorUsername: 'system',
          entityType: 'AccessReview',
          entityId: String(row.id),
          action: 'WORKFLOW_RECONCILED',
          after: { workflowId: start.workflowId, outcome },
          workflowId: start.workflowId,
          idempotencyKey: `${start.workflowId}:reconciled`,
        },
      ],
      skipDuplicates: true,
    });
  });
  opts.log?.(
    `reconciler: ${start.workflowId} had no confirmed start; ${outcome === 'STARTED' ? 'started' : 'found closed'} and marked`,
  );
  return start.workflowId;
}

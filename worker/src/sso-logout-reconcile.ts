/**
 * Rule 1 for back-channel logout notices (issue 22): the revocation writes an `SsoLogoutNotice` row in its
 * transaction; the reconciler starts `sso-logout-<id>` for each row not yet started (no grace period: nothing
 * else starts them) and marks it. Safe from several workers at once (USE_EXISTING; the mark is idempotent).
 */
import type { Client } from '@temporalio/client';
import type { PrismaClient } from '@portal/db';
import { ssoLogoutStart, startOnce } from '@portal/workflows';

/** Notices whose workflow was never started, 100 by id. */
export const unstartedLogoutNotices = (prisma: PrismaClient) =>
  prisma.ssoLogoutNotice.findMany({
    where: { workflowStartedAt: null, sentAt: null },
    select: { id: true, clientId: true },
    orderBy: { id: 'asc' },
    take: 100,
  });

/** Starts one notice's workflow on `taskQueue` and marks it. @returns the workflow id. */
export async function startLogoutNotice(
  opts: { prisma: PrismaClient; client: Client; taskQueue: string },
  row: { id: number; clientId: string },
): Promise<string> {
  const start = ssoLogoutStart(row.id, row.clientId);
  await startOnce(opts.client, opts.taskQueue, start);
  await opts.prisma.ssoLogoutNotice.update({ where: { id: row.id }, data: { workflowStartedAt: new Date() } });
  return start.workflowId;
}

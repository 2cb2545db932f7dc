/**
 * Rule 1 for back-channel logout notices (issue 22): the revocation writes an `SsoLogoutNotice` row in its
 * transaction; the worker's listener (sso-logout-listener.ts) starts `sso-logout-<id>` on the commit's
 * notification, and the reconciler starts any row still unstarted (no grace period: a start is idempotent)
 * and marks it. Safe from several workers at once (USE_EXISTING; the mark is idempotent).
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

/** What starting a notice's workflow needs. */
export interface LogoutNoticeStarter {
  prisma: PrismaClient;
  client: Client;
  taskQueue: string;
}

/** Starts one notice's workflow on `taskQueue` and marks it. @returns the workflow id. */
export async function startLogoutNotice(
  opts: LogoutNoticeStarter,
  row: { id: number; clientId: string },
): Promise<string> {
  const start = ssoLogoutStart(row.id, row.clientId);
  await startOnce(opts.client, opts.taskQueue, start);
  await opts.prisma.ssoLogoutNotice.update({ where: { id: row.id }, data: { workflowStartedAt: new Date() } });
  return start.workflowId;
}

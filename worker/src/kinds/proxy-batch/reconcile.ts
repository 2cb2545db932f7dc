/**
 * Rule 1 for proxy batches: a batch row committed by the API whose workflow start was never confirmed (older
 * than the grace period) gets its `proxy-batch-<id>` started and marked, like the request kinds' rows.
 */
import type { Client } from '@temporalio/client';
import type { PrismaClient } from '@portal/db';
import { proxyBatchWorkflowId, startProxyBatchWorkflow } from '@portal/workflows';

export async function reconcileUnstartedBatches(opts: {
  prisma: PrismaClient;
  client: Client;
  taskQueue: string;
  before: Date;
  notificationDeadline?: string;
  log?: (message: string) => void;
}): Promise<string[]> {
  const rows = await opts.prisma.proxyBatch.findMany({
    where: { workflowStartedAt: null, sysdat: { lt: opts.before } },
    select: { id: true, proxyUserId: true, totalRequests: true },
    orderBy: { id: 'asc' },
    take: 100,
  });
  const repaired: string[] = [];
  for (const row of rows) {
    const proxy = await opts.prisma.portalUser.findUnique({ where: { id: row.proxyUserId } });
    const outcome = await startProxyBatchWorkflow(opts.client, row.id, row.totalRequests, {
      taskQueue: opts.taskQueue,
      proxyUserId: row.proxyUserId,
      proxyLabel: proxy ? `${proxy.firstName} ${proxy.lastName} (${proxy.username})` : `user ${row.proxyUserId}`,
      notificationDeadline: opts.notificationDeadline,
    });
    await opts.prisma.proxyBatch.update({ where: { id: row.id }, data: { workflowStartedAt: new Date() } });
    opts.log?.(
      `reconciler: ${proxyBatchWorkflowId(row.id)} had no confirmed start; ${outcome.toLowerCase()} and marked`,
    );
    repaired.push(proxyBatchWorkflowId(row.id));
  }
  return repaired;
}

/**
 * Rule 1 for proxy batches, one row at a time (the reconciler's pass in reconciler.ts lists the rows and
 * handles each on its own):
 * - a batch row committed by the API whose workflow start was never confirmed (older than the grace period)
 *   gets its `proxy-batch-<id>` started and marked, like the request kinds' rows;
 * - a RUNNING batch whose workflow closed without finishing it (failed, terminated, timed out, cancelled, or
 *   gone from Temporal) is stored ABORTED with the 001 §8 text, so the proxy's page does not wait forever.
 */
import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import type { PrismaClient } from '@portal/db';
import { proxyBatchStart, proxyBatchWorkflowId, startOnce } from '@portal/workflows';
import { personLabel } from '../request-reads';
import { abortedBatch } from './finish';

export interface BatchReconcileOptions {
  prisma: PrismaClient;
  client: Client;
  taskQueue: string;
  notificationDeadline?: string;
  writeDeadline?: string;
  writeAttemptTimeout?: string;
  log?: (message: string) => void;
}

/** Batch rows filed before `before` whose workflow start was never confirmed, 100 by id. */
export const unstartedBatches = (prisma: PrismaClient, before: Date) =>
  prisma.proxyBatch.findMany({
    where: { workflowStartedAt: null, sysdat: { lt: before } },
    select: { id: true, proxyUserId: true, totalRequests: true },
    orderBy: { id: 'asc' },
    take: 100,
  });

/** Starts (or finds closed) the batch's workflow and marks the row. @returns the workflow id. */
export async function startUnstartedBatch(
  opts: BatchReconcileOptions,
  row: Awaited<ReturnType<typeof unstartedBatches>>[number],
): Promise<string> {
  const proxy = await opts.prisma.portalUser.findUnique({ where: { id: row.proxyUserId } });
  const start = proxyBatchStart(row.id, row.totalRequests, {
    proxyUserId: row.proxyUserId,
    proxyLabel: proxy ? personLabel(proxy) : `user ${row.proxyUserId}`,
    notificationDeadline: opts.notificationDeadline,
    writeDeadline: opts.writeDeadline,
    writeAttemptTimeout: opts.writeAttemptTimeout,
  });
  const outcome = await startOnce(opts.client, opts.taskQueue, start);
  await opts.prisma.proxyBatch.update({ where: { id: row.id }, data: { workflowStartedAt: new Date() } });
  opts.log?.(`reconciler: ${proxyBatchWorkflowId(row.id)} had no confirmed start; ${outcome.toLowerCase()} and marked`);
  return proxyBatchWorkflowId(row.id);
}

/** Started batch rows still RUNNING, 100 by id (a batch runs for seconds to minutes, so they are few). */
export const runningBatches = (prisma: PrismaClient) =>
  prisma.proxyBatch.findMany({
    where: { status: 'RUNNING', workflowStartedAt: { not: null } },
    select: { id: true, workflowId: true, processed: true, totalRequests: true },
    orderBy: { id: 'asc' },
    take: 100,
  });

/** The status of the workflow's latest run when it is closed ('NOT_FOUND' when Temporal no longer has it). */
async function closedAs(client: Client, workflowId: string): Promise<string | null> {
  try {
    const { status } = await client.workflow.getHandle(workflowId).describe();
    // The latest run: after a continue-as-new it is the new run, RUNNING.
    return status.name === 'RUNNING' ? null : status.name;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return 'NOT_FOUND';
    throw err;
  }
}

/**
 * Stores the batch ABORTED (001 §3: `abortStatusCode` null, `abortRequestNum` the first user whose turn never
 * came) when its workflow is closed, with an audit row. A batch that finished normally wrote its row before its
 * workflow closed, so the RUNNING condition of the write leaves it as it is.
 * @returns the workflow id when it stored the abort, else null.
 */
export async function abortClosedBatch(
  opts: BatchReconcileOptions,
  row: Awaited<ReturnType<typeof runningBatches>>[number],
): Promise<string | null> {
  const status = await closedAs(opts.client, row.workflowId);
  if (!status) return null;
  const requestNum = row.processed < row.totalRequests ? row.processed + 1 : null;
  const stored = await opts.prisma.$transaction(async (tx) => {
    const { count } = await tx.proxyBatch.updateMany({
      where: { id: row.id, status: 'RUNNING' },
      data: abortedBatch({ statusCode: null, requestNum }),
    });
    if (!count) return false;
    await tx.auditEvent.createMany({
      data: [
        {
          actorUsername: 'system',
          entityType: 'ProxyBatch',
          entityId: String(row.id),
          action: 'ABORTED',
          after: { workflowStatus: status, abortRequestNum: requestNum },
          workflowId: row.workflowId,
          idempotencyKey: `${row.workflowId}:aborted`,
        },
      ],
      skipDuplicates: true,
    });
    return true;
  });
  if (!stored) return null;
  opts.log?.(`reconciler: ${row.workflowId} closed (${status}) while its batch was RUNNING; stored ABORTED`);
  return row.workflowId;
}

/** The batch that filed each of `requestIds` (access-change request ids), for those a proxy batch filed. */
export async function batchesOfRequests(prisma: PrismaClient, requestIds: number[]): Promise<Map<number, number>> {
  if (!requestIds.length) return new Map();
  const items = await prisma.proxyBatchItem.findMany({
    where: { accessModRequestId: { in: requestIds } },
    select: { accessModRequestId: true, batchId: true },
  });
  return new Map(items.map((i) => [i.accessModRequestId!, i.batchId]));
}

/**
 * The start of an access-change request that a proxy batch filed (rule 1; REQUEST-LIFECYCLE "Proxy bulk
 * batch"), shared by the batch's filing activity and the reconciler: whichever of them starts the request
 * (the reconciler may win the race after a worker restart), its workflow carries `ProxyBatchId` and names the
 * proxy and the batch as its requester.
 */
import type { Client } from '@temporalio/client';
import type { PrismaClient } from '@portal/db';
import { ProxyBatchIdKey, accessChangeDefinition, startRequestWorkflow } from '@portal/workflows';

export interface BatchRequestStart {
  requestId: number;
  batchId: number;
  subjectUserId: number;
  proxyUserId: number;
  /** 'First Last (username)' of the subject and of the proxy (`personLabel`). */
  subjectLabel: string;
  proxyLabel: string;
  notificationDeadline?: string;
}

/**
 * Starts `access-change-<requestId>` as a request of proxy batch `batchId`.
 * @returns 'STARTED' or 'CLOSED' as `startRequestWorkflow`. @throws when Temporal is unreachable.
 */
export function startBatchRequestWorkflow(
  client: Client,
  taskQueue: string,
  start: BatchRequestStart,
): Promise<'STARTED' | 'CLOSED'> {
  return startRequestWorkflow(
    client,
    accessChangeDefinition,
    {
      requestId: start.requestId,
      subjectUserId: start.subjectUserId,
      requesterUserId: start.proxyUserId,
      notificationDeadline: start.notificationDeadline,
    },
    {
      taskQueue,
      subjectLabel: start.subjectLabel,
      requesterLabel: `${start.proxyLabel}, proxy batch #${start.batchId}`,
      extraSearchAttributes: [{ key: ProxyBatchIdKey, value: String(start.batchId) }],
    },
  );
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

/**
 * Shared setup of the proxy batch tests: subjects at a site (portal users without directory entries: they
 * never sign in), batches stored and started as the API does (for tests without an API), holding a user's
 * filing lock so a batch waits at that user (a kill or a deactivation lands at a known point), waiting for a
 * batch to end.
 */
import crypto from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { AccessControl } from '@portal/contract';
import type { PortalUser, PrismaClient } from '@portal/db';
import { proxyBatchWorkflowId, startProxyBatchWorkflow } from '@portal/workflows';

export { filingWaits, holdFilingLock } from '../../support/filing-locks';

/** Creates `n` active users whose current access record names AO `siteCode` (role 'Clinical Research Associate'). */
export async function subjectsAt(prisma: PrismaClient, siteCode: string, n: number, tag = 'pb'): Promise<PortalUser[]> {
  const users: PortalUser[] = [];
  for (let i = 0; i < n; i++) {
    const suffix = crypto.randomBytes(4).toString('hex');
    const user = await prisma.portalUser.create({
      data: {
        username: `${tag}${suffix}${i}`,
        firstName: 'Batch',
        lastName: `${tag}${i}`,
        email: `${tag}${suffix}${i}@it.portal.test`,
        userAccesses: {
          create: {
            roleName: 'Clinical Research Associate',
            siteCodes: [siteCode],
            createdBy: 'test',
            lastModifiedBy: 'test',
          },
        },
      },
    });
    users.push(user);
  }
  return users;
}

/** Stores a batch and its items as the API does and starts `proxy-batch-<id>` on `taskQueue`. */
export async function storeAndStartBatch(
  prisma: PrismaClient,
  client: Client,
  taskQueue: string,
  proxyUserId: number,
  users: readonly { id: number; firstName: string; lastName: string; email: string }[],
  block: AccessControl,
  requesterComments = '',
): Promise<number> {
  const batch = await prisma.proxyBatch.create({
    data: {
      workflowId: `pending-${crypto.randomUUID()}`,
      proxyUserId,
      accessControls: [block],
      requesterComments,
      totalRequests: users.length,
    },
  });
  await prisma.proxyBatch.update({ where: { id: batch.id }, data: { workflowId: proxyBatchWorkflowId(batch.id) } });
  await prisma.proxyBatchItem.createMany({
    data: users.map((u, i) => ({
      batchId: batch.id,
      requestNum: i + 1,
      portalUserId: u.id,
      firstName: u.firstName,
      lastName: u.lastName,
      email: u.email,
    })),
  });
  await startProxyBatchWorkflow(client, batch.id, users.length, {
    taskQueue,
    proxyUserId,
    proxyLabel: 'test proxy',
    notificationDeadline: '1 minute',
  });
  await prisma.proxyBatch.update({ where: { id: batch.id }, data: { workflowStartedAt: new Date() } });
  return batch.id;
}

/** Polls the batch row until it is no longer RUNNING. */
export async function batchEnded(prisma: PrismaClient, batchId: number, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const batch = await prisma.proxyBatch.findUniqueOrThrow({ where: { id: batchId } });
    if (batch.status !== 'RUNNING') return batch;
    if (Date.now() > deadline) throw new Error(`batch ${batchId} still running: ${JSON.stringify(batch)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

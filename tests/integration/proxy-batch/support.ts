/**
 * Shared setup of the proxy batch tests: subjects at a site (portal users without directory entries: they
 * never sign in), batches stored and started as the API does (for paths the API refuses up front, e.g. a
 * first user who turns inactive), waiting for a batch to end, and the worker process for the kill test.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { type ChildProcess, spawn } from 'node:child_process';
import type { Client } from '@temporalio/client';
import type { AccessControl } from '@portal/contract';
import type { PortalUser, PrismaClient } from '@portal/db';
import { proxyBatchWorkflowId, startProxyBatchWorkflow } from '@portal/workflows';
import { stackEnv } from '../fixtures';

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

/** The worker process (worker/src/main.ts) on `taskQueue`, resolved once it polls. */
export async function startWorkerProcess(taskQueue: string): Promise<ChildProcess> {
  const root = path.join(import.meta.dirname, '..', '..', '..');
  const child = spawn(
    process.execPath,
    ['--conditions=development', '--import', 'tsx', path.join(root, 'worker', 'src', 'main.ts')],
    {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: stackEnv().DATABASE_URL,
        TEMPORAL_ADDRESS: stackEnv().TEMPORAL_ADDRESS,
        TEMPORAL_TASK_QUEUE: taskQueue,
        SMTP_URL: stackEnv().SMTP_URL,
        REVIEWER_DIGEST_TO: '',
        RECONCILE_GRACE: '1 day',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${output}`)), 90_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('worker running on task queue')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code}:\n${output}`));
    });
  });
  return child;
}

/**
 * Outages longer than a deadline (issue 21): the worker reaches PostgreSQL through a fault proxy
 * (tests/support/fault-proxy.ts) that refuses connections (the database stopped) or forwards nothing (the
 * database frozen), past the lifecycle's write deadline, shortened through the workflow's input. The test's
 * own reads go to PostgreSQL directly.
 */
import { describe, expect, it } from 'vitest';
import { createPrisma, type PrismaClient } from '@portal/db';
import { reviewUpdate } from '@portal/workflows';
import { startFaultProxy, viaProxy } from '../../support/fault-proxy';
import { stackEnv, testMailSettings } from '../fixtures';
import {
  type TemporalTestEnv,
  auditActions,
  fileAccessRequest,
  newWorker,
  review,
  uniqueQueue,
  useLifecycleStack,
} from './support';

let env: TemporalTestEnv;
let prisma: PrismaClient;

useLifecycleStack((e, p) => {
  env = e;
  prisma = p;
});

describe('the database away past the write deadline', () => {
  // Case 7: the MAIL_FAILED bookkeeping ran with the write options and no catch of its own, so an outage
  // outlasting its deadline failed a workflow whose request was already resolved.
  for (const fault of ['refuse', 'hang'] as const) {
    it(`completes a resolved request whose MAIL_FAILED bookkeeping cannot be written (database ${fault === 'refuse' ? 'stopped' : 'frozen'})`, async () => {
      const databaseUrl = new URL(stackEnv().DATABASE_URL!);
      const proxy = await startFaultProxy({ host: databaseUrl.hostname, port: Number(databaseUrl.port) });
      const workerPrisma = createPrisma(viaProxy(databaseUrl.toString(), proxy));
      try {
        const taskQueue = uniqueQueue(`lifecycle-bookkeeping-${fault}`);
        const worker = await newWorker(env, workerPrisma, taskQueue, {
          mail: { ...testMailSettings(), smtpUrl: 'smtp://127.0.0.1:9' },
        });
        await worker.runUntil(async () => {
          const filed = await fileAccessRequest(env, prisma, taskQueue, {
            notificationDeadline: '2 seconds',
            writeDeadline: '4 seconds',
          });
          const handle = env.client.workflow.getHandle(filed.workflowId);
          await handle.executeUpdate(reviewUpdate, { args: [review({ requestStatus: 'REJECTED' })] });
          // The rejection is committed; the mail then gives up (no SMTP server) and its bookkeeping meets a
          // database that stays away for longer than the write deadline.
          if (fault === 'refuse') proxy.refuse();
          else proxy.hang();
          const result = await handle.result().finally(() => proxy.heal());
          expect(result.status).toBe('REJECTED');
          expect((await handle.describe()).status.name).toBe('COMPLETED');
          expect(await prisma.accessModRequest.findUniqueOrThrow({ where: { id: filed.id } })).toMatchObject({
            requestStatus: 'REJECTED',
          });
          expect(await auditActions(prisma, filed.workflowId)).toEqual(['CREATED', 'STATUS_REJECTED']);
        });
      } finally {
        proxy.heal();
        await workerPrisma.$disconnect();
        await proxy.close();
      }
    }, 120_000);
  }
});

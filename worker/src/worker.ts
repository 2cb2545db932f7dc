/**
 * Creates the Temporal worker: bundles the workflows from @portal/workflows and registers the activities.
 * Used by the worker process (main.ts) and in-process by the workflow tests.
 */
import { createRequire } from 'node:module';
import { type NativeConnection, Worker } from '@temporalio/worker';
import type { PrismaClient } from '@portal/db';
import { createActivities, type MailSettings } from './activities';

const require = createRequire(import.meta.url);

/** Absolute path of the workflows entry file that the worker bundles. */
export const workflowsPath = require.resolve('@portal/workflows/workflows');

export async function createWorker(opts: {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  prisma: PrismaClient;
  mail: MailSettings;
}): Promise<Worker> {
  return Worker.create({
    connection: opts.connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    workflowsPath,
    activities: createActivities(opts.prisma, opts.mail),
  });
}

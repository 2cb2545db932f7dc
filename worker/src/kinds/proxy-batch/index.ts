/** The proxy batch's activities (REQUEST-LIFECYCLE.md "Proxy bulk batch"), built around one Prisma client. */
import type { PrismaClient } from '@portal/db';
import type { ProxyBatchActivities } from '@portal/workflows';
import { createFileProxyBatchItem } from './file-item';
import { createFinishProxyBatch } from './finish';

export function createProxyBatchActivities(prisma: PrismaClient): ProxyBatchActivities {
  return { fileProxyBatchItem: createFileProxyBatchItem(prisma), finishProxyBatch: createFinishProxyBatch(prisma) };
}

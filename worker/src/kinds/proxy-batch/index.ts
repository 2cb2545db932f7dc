/**
 * The proxy batch's activities (REQUEST-LIFECYCLE.md "Proxy bulk batch"), built around one Prisma client; the
 * filed comments carry `proxyCommentMarker` (PROXY_COMMENT_MARKER, 000 §3).
 */
import type { PrismaClient } from '@portal/db';
import type { ProxyBatchActivities } from '@portal/workflows';
import { createFileProxyBatchItem } from './file-item';
import { createFinishProxyBatch } from './finish';

export function createProxyBatchActivities(prisma: PrismaClient, proxyCommentMarker: string): ProxyBatchActivities {
  return {
    fileProxyBatchItem: createFileProxyBatchItem(prisma, proxyCommentMarker),
    finishProxyBatch: createFinishProxyBatch(prisma),
  };
}

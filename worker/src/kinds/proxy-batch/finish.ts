/**
 * The proxy batch's last write (001 §3 Proxy run summary): COMPLETED, or ABORTED with the first user's status
 * (422 or 304, 001 §4), its spec text and request number; the finish time. Idempotent: a batch already
 * finished is left as it is.
 */
import { PROXY_MESSAGES } from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import type { FinishProxyBatchInput } from '@portal/workflows';

export function createFinishProxyBatch(prisma: PrismaClient) {
  return async function finishProxyBatch(input: FinishProxyBatchInput): Promise<void> {
    const abort = input.abort;
    await prisma.proxyBatch.updateMany({
      where: { id: input.batchId, status: 'RUNNING' },
      data: abort
        ? {
            status: 'ABORTED',
            abortedProcessing: true,
            abortStatusCode: abort.statusCode,
            abortStatusText:
              abort.statusCode === 304 ? PROXY_MESSAGES.notSubmittedNoData : PROXY_MESSAGES.notSubmittedErrors,
            abortRequestNum: abort.requestNum,
            finishedAt: new Date(),
          }
        : { status: 'COMPLETED', finishedAt: new Date() },
    });
  };
}

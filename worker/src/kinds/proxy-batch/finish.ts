/**
 * The proxy batch's last write (001 §3 Proxy run summary): COMPLETED, or ABORTED with the first user's status
 * (422 or 304, 001 §4), its spec text and request number; the finish time. Idempotent: a batch already
 * finished is left as it is.
 */
import { PROXY_MESSAGES } from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import type { FinishProxyBatchInput } from '@portal/workflows';

/**
 * The row fields of an aborted batch (001 §3 run summary): the 001 §8 sentence of a 304 ('no data was
 * provided') or, for a 422 and for a batch whose workflow closed abnormally (`statusCode` null), the one of
 * 'one or more errors'.
 */
export function abortedBatch(abort: { statusCode: number | null; requestNum: number | null }) {
  return {
    status: 'ABORTED' as const,
    abortedProcessing: true,
    abortStatusCode: abort.statusCode,
    abortStatusText: abort.statusCode === 304 ? PROXY_MESSAGES.notSubmittedNoData : PROXY_MESSAGES.notSubmittedErrors,
    abortRequestNum: abort.requestNum,
    finishedAt: new Date(),
  };
}

export function createFinishProxyBatch(prisma: PrismaClient) {
  return async function finishProxyBatch(input: FinishProxyBatchInput): Promise<void> {
    await prisma.proxyBatch.updateMany({
      where: { id: input.batchId, status: 'RUNNING' },
      data: input.abort ? abortedBatch(input.abort) : { status: 'COMPLETED', finishedAt: new Date() },
    });
  };
}

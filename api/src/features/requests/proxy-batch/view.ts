/** The wire shapes of a proxy batch and its per-user results (contract/src/kinds/proxy-batch.ts; 001 §3). */
import type { ProxyBatch, ProxyBatchDetail, ProxyUserResult, RequestType } from '@portal/contract';
import type { Prisma } from '@portal/db';

type BatchRow = Prisma.ProxyBatchGetPayload<object>;
type ItemRow = Prisma.ProxyBatchItemGetPayload<object>;

export function proxyBatchView(b: BatchRow): ProxyBatch {
  return {
    id: b.id,
    workflowId: b.workflowId,
    status: b.status,
    proxyUserId: b.proxyUserId,
    accessControls: b.accessControls as ProxyBatch['accessControls'],
    requesterComments: b.requesterComments,
    processed: b.processed,
    summary: {
      abortedProcessing: b.abortedProcessing,
      abortStatusCode: b.abortStatusCode,
      abortStatusText: b.abortStatusText,
      abortRequestNum: b.abortRequestNum,
      totalRequests: b.totalRequests,
      numSuccesses: b.numSuccesses,
      numFailures: b.numFailures,
    },
    sysdat: b.sysdat.toISOString(),
    finishedAt: b.finishedAt?.toISOString() ?? null,
  };
}

export function proxyUserResultView(i: ItemRow): ProxyUserResult {
  return {
    requestNum: i.requestNum,
    blockNum: i.blockNum,
    success: i.success,
    activeRequestAlreadyExistsForUser: i.activeRequestAlreadyExistsForUser,
    responseStatus: i.responseStatus,
    portalUserId: i.portalUserId,
    firstName: i.firstName,
    lastName: i.lastName,
    email: i.email,
    requestId: i.accessModRequestId,
    requestType: i.requestType as RequestType | null,
    fieldErrors: (i.fieldErrors as Record<string, string[]> | null) ?? null,
  };
}

export const proxyBatchDetailView = (b: BatchRow, items: ItemRow[]): ProxyBatchDetail => ({
  ...proxyBatchView(b),
  results: items.map(proxyUserResultView),
});

/**
 * A reconciliation of one system (types.ts): the target's users in chunks, each chunk one activity (so a
 * retried chunk repeats only itself and memory stays bounded), then the missing accounts and the counts.
 * Report-only: the target is never changed.
 */
import { ActivityFailure, proxyActivities } from '@temporalio/workflow';
import type { ProvisionReconcileActivities, ProvisionReconcileInput } from './types';

export async function provisionReconcileWorkflow(input: ProvisionReconcileInput): Promise<number> {
  const { beginReconciliation, reconcileChunk, finishReconciliation } = proxyActivities<ProvisionReconcileActivities>({
    startToCloseTimeout: '10 minutes',
    retry: {
      initialInterval: '1 second',
      maximumInterval: input.maxRetryInterval ?? '1 minute',
      maximumAttempts: input.attempts ?? 10,
    },
  });
  const reconciliationId = await beginReconciliation(input);
  try {
    let next: number | null = 1;
    while (next !== null) {
      next = await reconcileChunk({
        reconciliationId,
        startIndex: next,
        chunk: input.chunk ?? 10_000,
        pageSize: input.pageSize ?? 500,
      });
    }
    await finishReconciliation({ reconciliationId });
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    await finishReconciliation({ reconciliationId, error: (err.cause ?? err).message });
  }
  return reconciliationId;
}

/**
 * The proxy bulk batch workflow (001 §4 Proxy submission; REQUEST-LIFECYCLE.md "Proxy bulk batch"): files one
 * access-change request per selected user, strictly one after another, each through one idempotent local
 * activity (which also starts that request's own workflow: the requests are not children, they outlive the
 * batch).
 * The first user's 422 or 304 aborts the run; later failures are only recorded. History stays bounded: the
 * workflow continues as new every PROXY_BATCH_USERS_PER_RUN users (or when the SDK suggests it), carrying
 * only the batch id, the next user and the counters. Deterministic: no I/O here.
 */
import {
  type RetryPolicy,
  continueAsNew,
  log,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import {
  PROXY_BATCH_NOT_FOUND,
  PROXY_BATCH_USERS_PER_RUN,
  type ProxyBatchActivities,
  type ProxyBatchInput,
  proxyBatchProgressQuery,
} from './types';

/**
 * Database writes that wait for the database rather than fail the batch: no overall deadline, retries every
 * at most 30 s. An item's transaction finds its own earlier work, so a retry never files twice.
 */
const RETRY: RetryPolicy = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '30 seconds',
  nonRetryableErrorTypes: [PROXY_BATCH_NOT_FOUND],
};
const { fileProxyBatchItem, finishProxyBatch } = proxyActivities<ProxyBatchActivities>({
  startToCloseTimeout: '30 seconds',
  retry: RETRY,
});
/**
 * The same filing as a local activity: it runs on the batch's own worker inside the workflow task, so a user
 * costs the filing itself and not a round trip through the server's task dispatch (issue 12 Speed: that round
 * trip was most of a user's time). A killed worker re-runs the unrecorded items on replay; the filing finds
 * its own earlier work, so nothing is filed twice.
 */
const local = proxyLocalActivities<ProxyBatchActivities>({
  startToCloseTimeout: '30 seconds',
  // Past this, a retry waits as a server timer instead of holding the workflow task.
  localRetryThreshold: '10 seconds',
  retry: RETRY,
});
/** Histories before this patch filed through task-queue activities; they replay that way. */
export const PROXY_BATCH_LOCAL_FILING_PATCH = 'proxy-batch-local-filing';

export async function proxyBatchWorkflow(input: ProxyBatchInput): Promise<ProxyBatchInput['counters']> {
  const counters = { ...input.counters };
  let next = input.nextRequestNum;
  setHandler(proxyBatchProgressQuery, () => ({
    batchId: input.batchId,
    totalRequests: input.totalRequests,
    nextRequestNum: next,
    ...counters,
  }));

  const firstOfRun = next;
  while (next <= input.totalRequests) {
    if (next - firstOfRun >= PROXY_BATCH_USERS_PER_RUN || workflowInfo().continueAsNewSuggested) {
      // Only the query is registered, so no handler can be running here.
      return continueAsNew<typeof proxyBatchWorkflow>({ ...input, nextRequestNum: next, counters });
    }
    const file = patched(PROXY_BATCH_LOCAL_FILING_PATCH) ? local.fileProxyBatchItem : fileProxyBatchItem;
    const outcome = await file({
      batchId: input.batchId,
      requestNum: next,
      notificationDeadline: input.notificationDeadline,
      writeDeadline: input.writeDeadline,
      writeAttemptTimeout: input.writeAttemptTimeout,
    });
    counters.processed += 1;
    if (outcome.success) counters.successes += 1;
    else counters.failures += 1;
    if (next === 1 && (outcome.responseStatus === 422 || outcome.responseStatus === 304)) {
      log.info('proxy batch aborted by its first user', { batchId: input.batchId, status: outcome.responseStatus });
      await finishProxyBatch({ batchId: input.batchId, abort: { requestNum: 1, statusCode: outcome.responseStatus } });
      return counters;
    }
    next += 1;
  }
  await finishProxyBatch({ batchId: input.batchId, abort: null });
  return counters;
}

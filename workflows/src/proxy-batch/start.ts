/**
 * Starting a proxy batch's workflow (rule 1, "commit, then start"), shared by the API and the worker's
 * reconciler: USE_EXISTING / REJECT_DUPLICATE as every request, the search attributes `RequestType`
 * (PROXY_BATCH), `RequesterUserId` and `ProxyBatchId`, and a static summary. Client-side only.
 */
import { type Client, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { ProxyBatchIdKey, RequestTypeKey, RequesterUserIdKey } from '../search-attributes';
import { PROXY_BATCH_WORKFLOW_TYPE, type ProxyBatchInput, proxyBatchWorkflowId } from './types';

export interface StartProxyBatchOptions {
  taskQueue: string;
  proxyUserId: number;
  /** e.g. 'Jane Doe (jdoe)'. */
  proxyLabel: string;
  notificationDeadline?: string;
}

/**
 * Starts `proxy-batch-<batchId>` unless it runs or ran already.
 * @returns 'STARTED' (new or running) or 'CLOSED' (it ran before). @throws when Temporal is unreachable.
 */
export async function startProxyBatchWorkflow(
  client: Client,
  batchId: number,
  totalRequests: number,
  opts: StartProxyBatchOptions,
): Promise<'STARTED' | 'CLOSED'> {
  const input: ProxyBatchInput = {
    batchId,
    totalRequests,
    nextRequestNum: 1,
    counters: { processed: 0, successes: 0, failures: 0 },
    notificationDeadline: opts.notificationDeadline,
  };
  try {
    await client.workflow.start(PROXY_BATCH_WORKFLOW_TYPE, {
      workflowId: proxyBatchWorkflowId(batchId),
      taskQueue: opts.taskQueue,
      args: [input],
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      typedSearchAttributes: [
        { key: RequestTypeKey, value: 'PROXY_BATCH' },
        { key: RequesterUserIdKey, value: opts.proxyUserId },
        { key: ProxyBatchIdKey, value: String(batchId) },
      ],
      staticSummary: `Proxy batch #${batchId}: ${totalRequests} users, by ${opts.proxyLabel}`,
      staticDetails: [
        `**Proxy batch #${batchId}** by ${opts.proxyLabel} (portal user ${opts.proxyUserId})`,
        '',
        `- Files one access-change request per user, in order; each runs as its own \`access-change-<id>\`.`,
        `- Find them with \`ProxyBatchId="${batchId}"\`; the \`progress\` query shows the counters.`,
      ].join('\n'),
    });
    return 'STARTED';
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return 'CLOSED';
    throw err;
  }
}

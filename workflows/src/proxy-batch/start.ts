/**
 * The starts a proxy batch makes (rule 1; REQUEST-LIFECYCLE "Proxy bulk batch"), built once for every starter:
 * - `proxyBatchStart`: `proxy-batch-<id>` (API and reconciler), search attributes `RequestType` (PROXY_BATCH),
 *   `RequesterUserId` and `ProxyBatchId`, and a static summary;
 * - `batchRequestStart`: an access-change request the batch filed (the batch's filing activity and the
 *   reconciler, which may win the race after a worker restart): the request's own start plus `ProxyBatchId`,
 *   naming the proxy and the batch as its requester.
 * Client-side only.
 */
import { accessChangeDefinition } from '../access-change/definition';
import type { LifecycleWorkflow } from '../lifecycle/start';
import { requestStart } from '../lifecycle/start';
import type { LifecycleInput } from '../lifecycle/types';
import { ProxyBatchIdKey, RequestTypeKey, RequesterUserIdKey } from '../search-attributes';
import type { WorkflowStart } from '../start';
import type { proxyBatchWorkflow } from './workflow';
import { PROXY_BATCH_WORKFLOW_TYPE, type ProxyBatchInput, proxyBatchWorkflowId } from './types';

export interface ProxyBatchStartOptions {
  proxyUserId: number;
  /** e.g. 'Jane Doe (jdoe)'. */
  proxyLabel: string;
  notificationDeadline?: string;
  writeDeadline?: string;
  writeAttemptTimeout?: string;
}

/** The typed start of `proxy-batch-<batchId>` from its first user. */
export function proxyBatchStart(
  batchId: number,
  totalRequests: number,
  opts: ProxyBatchStartOptions,
): WorkflowStart<typeof proxyBatchWorkflow> {
  const input: ProxyBatchInput = {
    batchId,
    totalRequests,
    nextRequestNum: 1,
    counters: { processed: 0, successes: 0, failures: 0 },
    notificationDeadline: opts.notificationDeadline,
    writeDeadline: opts.writeDeadline,
    writeAttemptTimeout: opts.writeAttemptTimeout,
  };
  return {
    workflowType: PROXY_BATCH_WORKFLOW_TYPE,
    workflowId: proxyBatchWorkflowId(batchId),
    args: [input],
    searchAttributes: [
      { key: RequestTypeKey, value: 'PROXY_BATCH' },
      { key: RequesterUserIdKey, value: opts.proxyUserId },
      { key: ProxyBatchIdKey, value: String(batchId) },
    ],
    summary: `Proxy batch #${batchId}: ${totalRequests} users, by ${opts.proxyLabel}`,
    details: [
      `**Proxy batch #${batchId}** by ${opts.proxyLabel} (portal user ${opts.proxyUserId})`,
      '',
      `- Files one access-change request per user, in order; each runs as its own \`access-change-<id>\`.`,
      `- Find them with \`ProxyBatchId="${batchId}"\`; the \`progress\` query shows the counters.`,
    ].join('\n'),
  };
}

/** The typed start of `access-change-<requestId>` filed by proxy batch `batchId` (`requesterUserId`: the proxy). */
export function batchRequestStart(
  batchId: number,
  input: LifecycleInput,
  labels: { subjectLabel: string; proxyLabel: string },
): WorkflowStart<LifecycleWorkflow> {
  return requestStart(accessChangeDefinition, input, {
    subjectLabel: labels.subjectLabel,
    requesterLabel: `${labels.proxyLabel}, proxy batch #${batchId}`,
    extraSearchAttributes: [{ key: ProxyBatchIdKey, value: String(batchId) }],
  });
}

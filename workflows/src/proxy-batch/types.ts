/**
 * The proxy bulk batch (`proxy-batch-<id>`, 001 §2.7, §4 Proxy submission; REQUEST-LIFECYCLE.md "Proxy bulk
 * batch"): its start argument (carried across continue-as-new: only the batch id, the next user and the
 * counters), the activities it calls, their answers, and the `progress` query for operations staff. Pure
 * types and constants, shared by the workflow, the worker, the API and the tests.
 */
import { defineQuery } from '@temporalio/workflow';

export const PROXY_BATCH_WORKFLOW_TYPE = 'proxyBatchWorkflow';
export const PROXY_BATCH_ID_PREFIX = 'proxy-batch';
export const proxyBatchWorkflowId = (batchId: number): string => `${PROXY_BATCH_ID_PREFIX}-${batchId}`;

/** The workflow continues as new after this many users (or sooner when the SDK suggests it). */
export const PROXY_BATCH_USERS_PER_RUN = 100;

export interface ProxyBatchCounters {
  processed: number;
  successes: number;
  failures: number;
}

export interface ProxyBatchInput {
  batchId: number;
  /** Number of selected users (items 1..totalRequests). */
  totalRequests: number;
  /** The next item to file, from 1. */
  nextRequestNum: number;
  counters: ProxyBatchCounters;
  /** Handed to every filed request's own workflow (its resolution mail's deadline, rule 5). */
  notificationDeadline?: string;
  /** Handed to every filed request's own workflow (its writes' deadline, `LifecycleInput.writeDeadline`). */
  writeDeadline?: string;
  /** Handed to every filed request's own workflow (`LifecycleInput.writeAttemptTimeout`). */
  writeAttemptTimeout?: string;
}

export interface FileProxyItemInput {
  batchId: number;
  requestNum: number;
  notificationDeadline?: string;
  writeDeadline?: string;
  writeAttemptTimeout?: string;
}

/**
 * One user's outcome (001 §3 Per-user result): 200 filed (`requestId` set), 601 skipped because an active
 * request exists, 422 invalid for this user, 304 no changes. Business outcomes, never failures.
 */
export interface ProxyItemOutcome {
  requestNum: number;
  responseStatus: 200 | 601 | 422 | 304;
  success: boolean;
  requestId: number | null;
}

export interface FinishProxyBatchInput {
  batchId: number;
  /** The first user's 422 or 304 aborts the run (001 §4); null when every user had their turn. */
  abort: { requestNum: number; statusCode: number } | null;
}

export interface ProxyBatchActivities {
  /**
   * Files one user's request in one transaction (or returns the outcome stored by an earlier attempt), then
   * starts that request's own `access-change-<id>` workflow.
   */
  fileProxyBatchItem(input: FileProxyItemInput): Promise<ProxyItemOutcome>;
  /** Writes the batch's end: COMPLETED or ABORTED with the abort fields and the finish time. */
  finishProxyBatch(input: FinishProxyBatchInput): Promise<void>;
}

export interface ProxyBatchProgress extends ProxyBatchCounters {
  batchId: number;
  totalRequests: number;
  nextRequestNum: number;
}

/** The counters of the running batch, for operations staff (the browser reads the batch rows instead). */
export const proxyBatchProgressQuery = defineQuery<ProxyBatchProgress>('progress');

/** Non-retryable error type of a batch or item that does not exist. */
export const PROXY_BATCH_NOT_FOUND = 'PROXY_BATCH_NOT_FOUND';

/**
 * Starting the workflow a committed request runs as (REQUEST-LIFECYCLE rule 1, "commit, then start"), written
 * once for every kind and every starter (the API's filing, the proxy batch's filing activity, the worker's
 * reconciler):
 * - `WorkflowStart` is a typed start: the workflow function's type fixes its arguments, and the kind's builder
 *   (`requestStart`, `proxyBatchStart`, `batchRequestStart`) fixes its id, search attributes and summary, so
 *   the Temporal UI shows the same whoever starts it;
 * - `startOnce` applies the one id policy: USE_EXISTING (a second start of a running workflow is a no-op),
 *   REJECT_DUPLICATE (a closed request never runs again);
 * - `commitThenStart` commits first, then starts, then marks the row started; a start that fails after the
 *   commit is reported, never undone: the reconciler starts what stays unmarked.
 * Client-side only: not workflow code.
 */
import { type Client, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { SearchAttributePair, Workflow } from '@temporalio/common';

export interface WorkflowStart<W extends Workflow = Workflow> {
  /** The workflow function's name, as registered by the worker. */
  workflowType: string;
  workflowId: string;
  args: Parameters<W>;
  searchAttributes: SearchAttributePair[];
  /** The Temporal UI's one-line summary and its markdown details. */
  summary: string;
  details: string;
}

/** What a start found: a run exists now (new or already running), or the workflow closed before. */
export type StartOutcome = 'STARTED' | 'CLOSED';

/**
 * Starts `start.workflowId` on `taskQueue` unless it runs or ran already.
 * @throws the client's error when Temporal is unreachable (the caller decides: a committed filing stands).
 */
export async function startOnce<W extends Workflow>(
  client: Client,
  taskQueue: string,
  start: WorkflowStart<W>,
): Promise<StartOutcome> {
  try {
    await client.workflow.start<Workflow>(start.workflowType, {
      workflowId: start.workflowId,
      taskQueue,
      args: start.args,
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      typedSearchAttributes: start.searchAttributes,
      staticSummary: start.summary,
      staticDetails: start.details,
    });
    return 'STARTED';
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return 'CLOSED';
    throw err;
  }
}

export interface CommitThenStart<T> {
  /** The filing transaction. What it throws propagates: nothing was committed, nothing is started. */
  commit(): Promise<T>;
  /** The workflow the committed filing runs as, or null when there is none to start (a refusal, a known start). */
  startOf(committed: T): WorkflowStart | null;
  /** Marks the filing's workflow as started, so the reconciler skips it. */
  markStarted(committed: T): Promise<void>;
}

export interface StartPlace {
  client: Client;
  taskQueue: string;
  /** How long (ms) the start and its mark may take before they are left to the reconciler. */
  deadlineMs: number;
}

/** The committed filing, and how its start went: confirmed, not needed, or deferred with the error. */
export type Committed<T> =
  { committed: T; start: StartOutcome | 'NONE' } | { committed: T; start: 'DEFERRED'; error: unknown };

/**
 * Commits, then starts and marks (rule 1). A failed start or mark answers 'DEFERRED' with its error: the
 * commit stands and the reconciler (or a retry of the caller) starts it.
 * @throws what `commit` throws.
 */
export async function commitThenStart<T>(place: StartPlace, steps: CommitThenStart<T>): Promise<Committed<T>> {
  const committed = await steps.commit();
  const start = steps.startOf(committed);
  if (!start) return { committed, start: 'NONE' };
  try {
    const outcome = await place.client.withDeadline(Date.now() + place.deadlineMs, () =>
      startOnce(place.client, place.taskQueue, start),
    );
    await steps.markStarted(committed);
    return { committed, start: outcome };
  } catch (error) {
    return { committed, start: 'DEFERRED', error };
  }
}

/**
 * Starting a request's workflow (rule 1, "commit, then start"), shared by filing in the API and by the
 * worker's reconciler: id-conflict policy USE_EXISTING (a second start of a running request is a no-op),
 * id-reuse policy REJECT_DUPLICATE (a closed request never runs again), search attributes set at start, and
 * a static summary and details so the Temporal UI reads like the queue. Client-side only: not workflow code.
 */
import { type Client, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { SearchAttributePair } from '@temporalio/common';
import { RequestStatusKey, RequestTypeKey, RequesterUserIdKey, SubjectUserIdKey } from '../search-attributes';
import { type RequestKindDefinition, workflowIdOf } from './definition';
import type { LifecycleInput } from './types';

export interface StartRequestOptions {
  taskQueue: string;
  /** Shown in the Temporal UI's summary, e.g. 'Jane Doe (jdoe)'. */
  subjectLabel: string;
  requesterLabel: string;
  /** More search attributes, e.g. `ProxyBatchId` of a request filed by a proxy batch. */
  extraSearchAttributes?: SearchAttributePair[];
}

/**
 * Starts `<prefix>-<requestId>` unless it runs or ran already.
 * @returns 'STARTED' when a run exists now (new or running), 'CLOSED' when the request's workflow closed before.
 * @throws the client's error when Temporal is unreachable (the caller decides: filing still succeeds).
 */
export async function startRequestWorkflow(
  client: Client,
  def: RequestKindDefinition,
  input: LifecycleInput,
  opts: StartRequestOptions,
): Promise<'STARTED' | 'CLOSED'> {
  const workflowId = workflowIdOf(def, input.requestId);
  try {
    await client.workflow.start(def.workflowType, {
      workflowId,
      taskQueue: opts.taskQueue,
      args: [input],
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      typedSearchAttributes: [
        { key: RequestTypeKey, value: def.kind },
        { key: RequestStatusKey, value: def.initialStatus },
        { key: SubjectUserIdKey, value: input.subjectUserId },
        { key: RequesterUserIdKey, value: input.requesterUserId },
        ...(opts.extraSearchAttributes ?? []),
      ],
      staticSummary: `${def.label} #${input.requestId} for ${opts.subjectLabel}`,
      staticDetails: [
        `**${def.label} #${input.requestId}**`,
        '',
        `- Subject: ${opts.subjectLabel} (portal user ${input.subjectUserId})`,
        `- Requested by: ${opts.requesterLabel} (portal user ${input.requesterUserId})`,
        `- Reviewers save with the \`review\` update; the \`state\` query shows status and version.`,
      ].join('\n'),
    });
    return 'STARTED';
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return 'CLOSED';
    throw err;
  }
}

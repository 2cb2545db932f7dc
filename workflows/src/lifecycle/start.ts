/**
 * The start of a request kind's lifecycle workflow (rule 1), built once for every starter (the API's filing,
 * the proxy batch's filing activity, the reconciler): search attributes `RequestType`, `RequestStatus`,
 * `SubjectUserId`, `RequesterUserId` (and any the starter adds, e.g. `ProxyBatchId`), and a static summary and
 * details so the Temporal UI reads like the queue. Client-side only: not workflow code.
 */
import type { SearchAttributePair } from '@temporalio/common';
import type { accessChangeWorkflow } from '../access-change/workflow';
import { RequestStatusKey, RequestTypeKey, RequesterUserIdKey, SubjectUserIdKey } from '../search-attributes';
import type { WorkflowStart } from '../start';
import { type RequestKindDefinition, workflowIdOf } from './definition';
import type { LifecycleInput } from './types';

/** Every request kind's workflow has this signature (`<kind>Workflow(input)`). */
export type LifecycleWorkflow = typeof accessChangeWorkflow;

export interface RequestLabels {
  /** Shown in the Temporal UI's summary, e.g. 'Jane Doe (jdoe)'. */
  subjectLabel: string;
  requesterLabel: string;
  /** More search attributes, e.g. `ProxyBatchId` of a request filed by a proxy batch. */
  extraSearchAttributes?: SearchAttributePair[];
}

/** The typed start of `<prefix>-<requestId>` of `def`'s kind. */
export function requestStart(
  def: RequestKindDefinition,
  input: LifecycleInput,
  labels: RequestLabels,
): WorkflowStart<LifecycleWorkflow> {
  return {
    workflowType: def.workflowType,
    workflowId: workflowIdOf(def, input.requestId),
    args: [input],
    searchAttributes: [
      { key: RequestTypeKey, value: def.kind },
      { key: RequestStatusKey, value: def.initialStatus },
      { key: SubjectUserIdKey, value: input.subjectUserId },
      { key: RequesterUserIdKey, value: input.requesterUserId },
      ...(labels.extraSearchAttributes ?? []),
    ],
    summary: `${def.label} #${input.requestId} for ${labels.subjectLabel}`,
    details: [
      `**${def.label} #${input.requestId}**`,
      '',
      `- Subject: ${labels.subjectLabel} (portal user ${input.subjectUserId})`,
      `- Requested by: ${labels.requesterLabel} (portal user ${input.requesterUserId})`,
      `- Reviewers save with the \`review\` update; the \`state\` query shows status and version.`,
    ].join('\n'),
  };
}

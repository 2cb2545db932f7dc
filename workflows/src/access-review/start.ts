/**
 * The start of an access review campaign's workflow `access-review-<id>` (issue 25; rule 1 "commit, then
 * start"), built once for every starter (the API's create, the scheduled workflow's child start, the
 * reconciler): search attributes `RequestType` (ACCESS_REVIEW) and `AccessReviewId`, so operations staff find
 * every campaign in the Temporal Web UI, and a static summary. Client-side only.
 */
import { AccessReviewIdKey, RequestTypeKey } from '../search-attributes';
import type { WorkflowStart } from '../start';
import {
  ACCESS_REVIEW_WORKFLOW_TYPE,
  type AccessReviewInput,
  type AccessReviewSummary,
  accessReviewWorkflowId,
} from './types';

/** The campaign workflow's signature (workflow.ts implements it). */
export type AccessReviewWorkflow = (input: AccessReviewInput) => Promise<AccessReviewSummary>;

export interface AccessReviewStartOptions {
  name: string;
  durationDays: number;
  reminderEveryDays: number;
  /** e.g. 'Ada Admin (admin)', or 'recurring access review #3'. */
  createdByLabel: string;
  mailDeadline?: string;
}

/** The campaign workflow's input from its stored definition (days as Temporal durations). */
export function accessReviewInputOf(campaignId: number, opts: AccessReviewStartOptions): AccessReviewInput {
  return {
    campaignId,
    duration: `${opts.durationDays} days`,
    reminderEvery: opts.reminderEveryDays > 0 ? `${opts.reminderEveryDays} days` : null,
    mailDeadline: opts.mailDeadline,
  };
}

/** The typed start of `access-review-<campaignId>`. */
export function accessReviewStart(
  campaignId: number,
  opts: AccessReviewStartOptions,
  input: AccessReviewInput = accessReviewInputOf(campaignId, opts),
): WorkflowStart<AccessReviewWorkflow> {
  return {
    workflowType: ACCESS_REVIEW_WORKFLOW_TYPE,
    workflowId: accessReviewWorkflowId(campaignId),
    args: [input],
    searchAttributes: [
      { key: RequestTypeKey, value: 'ACCESS_REVIEW' },
      { key: AccessReviewIdKey, value: String(campaignId) },
    ],
    summary: `Access review #${campaignId}: ${opts.name}, by ${opts.createdByLabel}`,
    details: [
      `**Access review campaign #${campaignId}** ${opts.name}, by ${opts.createdByLabel}`,
      '',
      `- Open ${opts.durationDays} day(s) once its items are stored; reminders ${
        opts.reminderEveryDays > 0 ? `every ${opts.reminderEveryDays} day(s)` : 'off'
      }.`,
      `- Find every campaign with \`RequestType="ACCESS_REVIEW"\`; the \`progress\` query shows its phase.`,
    ].join('\n'),
  };
}

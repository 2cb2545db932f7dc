/**
 * Access review campaigns (issue 25 "Access review campaigns"; contract/src/access-reviews.ts): the campaign
 * workflow `access-review-<id>` and the scheduled workflow a recurring review's Temporal Schedule
 * (`access-review-schedule-<id>`) runs to file one campaign per run. Pure types and constants, shared by the
 * workflows, the worker, the API and the tests.
 *
 * A campaign's phases: SNAPSHOT (items stored in batches; continue-as-new keeps the history short), OPEN
 * (reviewers decide; an invitation mail per reviewer once, reminders every `reminderEvery` on durable timers,
 * until `duration` has passed or an ADMIN closes it early), CLOSING (the default applied to undecided items,
 * the Remove decisions carried out through the one access-records writer, the removed people mailed), then
 * CLOSED with a summary. An ADMIN's cancel ends it as CANCELLED with nothing removed.
 */
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { SignatureRef } from '@portal/contract';

export const ACCESS_REVIEW_WORKFLOW_TYPE = 'accessReviewWorkflow';
export const ACCESS_REVIEW_ID_PREFIX = 'access-review';
export const accessReviewWorkflowId = (campaignId: number): string => `${ACCESS_REVIEW_ID_PREFIX}-${campaignId}`;

export const ACCESS_REVIEW_SCHEDULED_WORKFLOW_TYPE = 'accessReviewScheduledWorkflow';
export const accessReviewScheduleId = (scheduleId: number): string => `access-review-schedule-${scheduleId}`;

/** Items stored per snapshot activity. */
export const DEFAULT_SNAPSHOT_BATCH = 5_000;
/** Snapshot batches per workflow run before it continues as new (or sooner when the SDK suggests it). */
export const DEFAULT_SNAPSHOT_BATCHES_PER_RUN = 40;
/** Removals per apply activity. */
export const DEFAULT_REMOVAL_BATCH = 500;
/** Keep items marked per activity (one statement each). */
export const DEFAULT_KEEP_BATCH = 5_000;

export type AccessReviewPhase = 'SNAPSHOT' | 'OPEN';

export interface AccessReviewInput {
  campaignId: number;
  /** How long the campaign stays open once its items are stored (Temporal duration: '14 days'; tests: '5 seconds'). */
  duration: string;
  /** Time between reminders while open (Temporal duration); null: none. */
  reminderEvery: string | null;
  /** Carried across continue-as-new: where the snapshot goes on (the last UserAccess id stored), absent at start. */
  snapshotAfterId?: number;
  /** Carried across continue-as-new: items stored by the earlier runs (the `progress` query's count). */
  snapshotStored?: number;
  /** Carried across continue-as-new once open: the phase it goes on in. */
  phase?: AccessReviewPhase;
  /** Carried across continue-as-new once open: when it opened and its deadline (ISO 8601). */
  openedAt?: string;
  deadline?: string;
  /** Carried across continue-as-new once open: reminder rounds done and mails given up so far. */
  remindersSent?: number;
  mailsFailed?: number;
  snapshotBatch?: number;
  snapshotBatchesPerRun?: number;
  removalBatch?: number;
  /** How long mails are retried before the campaign goes on without them (they are audited MAIL_FAILED). */
  mailDeadline?: string;
  /**
   * Start-to-close timeout of one snapshot batch (Temporal duration, default '30 seconds'): how long a batch
   * whose worker died waits before it is retried on another. Tests that kill a worker shorten it.
   */
  snapshotBatchTimeout?: string;
  /**
   * Heartbeat timeout of a removal batch (Temporal duration, default '30 seconds'; it heartbeats per person):
   * how long a batch whose worker died waits before it is retried on another. Tests that kill a worker
   * shorten it.
   */
  removalHeartbeatTimeout?: string;
}

export interface AccessReviewCloseArgs {
  /** Who closes or cancels (closedByUsername, the audit row's actor). */
  username: string;
  /**
   * A person's close, signed CAMPAIGN_CLOSE when SIGNATURES=on (docs/decisions.md "Electronic signatures"): the
   * ticket's row id only (never the ticket); the close's first activity takes it in its transaction.
   */
  signature?: SignatureRef;
}

/** What the workflow answers an ADMIN's close or cancel with. */
export interface AccessReviewCloseResult {
  status: 'CLOSING' | 'CANCELLED';
}

/** Closes the campaign before its deadline (the validator refuses once closing, closed or cancelled). */
export const closeAccessReviewUpdate = defineUpdate<AccessReviewCloseResult, [AccessReviewCloseArgs]>('close');
/** Cancels the campaign: nothing is removed (the validator refuses once closing, closed or cancelled). */
export const cancelAccessReviewUpdate = defineUpdate<AccessReviewCloseResult, [AccessReviewCloseArgs]>('cancel');

export interface AccessReviewProgress {
  phase: AccessReviewPhase | 'CLOSING' | 'CLOSED' | 'CANCELLED';
  itemsStored: number;
  remindersSent: number;
  removed: number;
}
export const accessReviewProgressQuery = defineQuery<AccessReviewProgress>('progress');

export interface AccessReviewSummary {
  status: 'CLOSED' | 'CANCELLED';
  itemsTotal: number;
  kept: number;
  removed: number;
  changed: number;
  /** Removals that failed every attempt (left in place, audited). */
  failed: number;
  mailsFailed: number;
}

export interface AccessReviewScheduledInput {
  /** The AccessReviewSchedule row whose definition the run files. */
  scheduleId: number;
  duration?: string;
  reminderEvery?: string | null;
}

/** The `close` update's refusal while the items are still being stored (a cancel is allowed then). */
export const ACCESS_REVIEW_CLOSE_DURING_SNAPSHOT =
  'This access review campaign is still storing its items: cancel it, or close it once it is open.';
/** The ApplicationFailure type of a refused `close` or `cancel`. */
export const ACCESS_REVIEW_UPDATE_REFUSED = 'ACCESS_REVIEW_UPDATE_REFUSED';
/** Reviewers mailed per invitation or reminder activity. */
export const ACCESS_REVIEW_MAIL_CHUNK = 100;
/** Who closes a campaign at its deadline (closedByUsername, the audit rows' actor). */
export const ACCESS_REVIEW_SYSTEM_ACTOR = 'system';

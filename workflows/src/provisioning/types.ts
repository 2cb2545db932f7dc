/**
 * Provisioning to study systems over SCIM 2.0 (issue 41, docs/decisions.md "Provisioning"). Pure types and
 * constants, shared by the workflow code, the worker's activities and the starters (listener, reconciler, API).
 *
 * - `provision-<system>-<subject>` converges one person's account at one system: started (or signalled) with
 *   `provisioningChanged` by the worker's listener when a change commits a `ProvisioningNotice`, so many
 *   changes to one person collapse into one run. Each round reads the person's wanted state from PostgreSQL, so
 *   the last committed change is what the target ends with, whatever the order of the signals.
 * - `provision-reconcile-<system>` is the Temporal Schedule of a system's reconciliation; each run (and each
 *   'Reconcile now') pages through the target's users and reports what differs, never changing the target.
 */
import { defineSignal } from '@temporalio/workflow';

export const PROVISION_WORKFLOW_TYPE = 'provisionWorkflow';
export const PROVISION_RECONCILE_WORKFLOW_TYPE = 'provisionReconcileWorkflow';

/** `provision-<systemAccessId>-<subjectId>` (the subject is PortalUser.subjectId, immutable). */
export const provisionWorkflowId = (systemAccessId: number, subjectId: string): string =>
  `provision-${systemAccessId}-${subjectId}`;
/** The Temporal Schedule id of a system's reconciliation. */
export const provisionReconcileScheduleId = (systemAccessId: number): string => `provision-reconcile-${systemAccessId}`;
/** A reconciliation started by 'Reconcile now' (its report row's id). */
export const provisionReconcileWorkflowId = (systemAccessId: number, reconciliationId: number): string =>
  `provision-reconcile-${systemAccessId}-${reconciliationId}`;

/** Sent by every starter: something the target should hold changed. The run converges once more. */
export const provisioningChangedSignal = defineSignal('provisioningChanged');

export interface ProvisionInput {
  systemAccessId: number;
  portalUserId: number;
  /** How long a failing target is retried (Temporal duration; the connection's retryDays, default '7 days'). */
  deadline?: string;
  /** One attempt's limit (default '1 minute'); tests shrink it. */
  attemptTimeout?: string;
  /** The retries' longest wait (default '10 minutes'); tests shrink it. */
  maxRetryInterval?: string;
}

/** What one convergence did at the target. */
export type ProvisionOutcome =
  'CREATED' | 'UPDATED' | 'DEACTIVATED' | 'DELETED' | 'UNCHANGED' | 'NOTHING_TO_DO' | 'REFUSED' | 'DISABLED';

export interface ProvisionActivities {
  /**
   * Converges `portalUserId`'s account at system `systemAccessId` on the person's wanted state: looks it up by
   * `externalId`, then creates, updates, deactivates or deletes it, and records the account's state. A 4xx
   * other than 409 and 429 is recorded as the person's provisioning error and answered 'REFUSED'.
   * @throws a retryable failure on 5xx, 429 and 503 (with the target's `Retry-After` as the next delay), and
   * timeouts.
   */
  convergeAccount(input: { systemAccessId: number; portalUserId: number }): Promise<ProvisionOutcome>;
  /** Records that the retries ran out (`message`: the last failure) as the account's error. */
  recordProvisioningFailure(input: { systemAccessId: number; portalUserId: number; message: string }): Promise<void>;
}

export interface ProvisionReconcileInput {
  systemAccessId: number;
  /** The report row made by 'Reconcile now'; absent for a scheduled run (the first activity makes one). */
  reconciliationId?: number;
  /** Target users read per activity (default 10,000, in SCIM pages of `pageSize`). */
  chunk?: number;
  /** SCIM page size (`count`, default 500). */
  pageSize?: number;
  /** Attempts of each step before the run stops FAILED (default 10); tests lower it. */
  attempts?: number;
  /** The retries' longest wait (default '1 minute'); tests shrink it. */
  maxRetryInterval?: string;
}

export interface ProvisionReconcileActivities {
  /** Makes (or takes) the run's report row. @returns its id. */
  beginReconciliation(input: { systemAccessId: number; reconciliationId?: number }): Promise<number>;
  /**
   * Reads up to `chunk` target users from `startIndex` (1-based, RFC 7644 §3.4.2.4), compares each with the
   * portal's wanted state, stores the differences (orphans, drift) and the externalIds seen. @returns the next
   * start index, or null when the listing ended.
   */
  reconcileChunk(input: {
    reconciliationId: number;
    startIndex: number;
    chunk: number;
    pageSize: number;
  }): Promise<number | null>;
  /** Stores the accounts missing at the target, the counts, and DONE (or FAILED with `error`). */
  finishReconciliation(input: { reconciliationId: number; error?: string }): Promise<void>;
}

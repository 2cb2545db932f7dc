/**
 * The reviewers' digest (REQUEST-LIFECYCLE.md "Reminders"): a Temporal Schedule runs
 * `reviewerDigestWorkflow` every period; it lists the requests of every kind waiting longer than a
 * configured time in an unresolved status and mails one digest to the reviewers' address.
 */
export const REVIEWER_DIGEST_WORKFLOW_TYPE = 'reviewerDigestWorkflow';
export const REVIEWER_DIGEST_SCHEDULE_ID = 'reviewer-digest';

export interface DigestInput {
  /** Requests waiting longer than this (Temporal duration, e.g. '3 days') are listed. */
  waitingLongerThan: string;
  /** The reviewers' address (REVIEWER_DIGEST_TO). */
  to: string;
}

export interface DigestRunInput {
  waitingLongerThanMs: number;
  to: string;
  /** The run's workflow id: the digest's idempotency key (one mail and one audit row per run). */
  runKey: string;
}

export interface DigestActivities {
  /** Lists what waits and mails it; sends nothing when nothing waits. @returns how many requests it listed. */
  sendReviewerDigest(input: DigestRunInput): Promise<{ listed: number }>;
}

/**
 * The activities of an access review campaign (issue 25 "Access review campaigns"), implemented by the worker
 * (worker/src/activities/access-review-*.ts). Types only. Every activity is idempotent against PostgreSQL: a
 * retried attempt (a killed worker, a timeout) finds its own earlier work and does it once.
 */
import type { SignatureRef } from '@portal/contract';

/** One snapshot batch: the active access records in scope with a UserAccess id above `afterId`. */
export interface SnapshotBatchInput {
  campaignId: number;
  afterId: number;
  limit: number;
}

export interface SnapshotBatchResult {
  /** Access records picked (stored now or by an earlier attempt); fewer than `limit`: the snapshot is done. */
  picked: number;
  /** Items this call inserted (an earlier attempt's items are not counted again). */
  stored: number;
  /** The last UserAccess id picked (null when none). */
  lastId: number | null;
}

export interface OpenCampaignInput {
  campaignId: number;
  /** The workflow's own time (ISO 8601) and the deadline it computed from `duration`. */
  openedAt: string;
  deadline: string;
}

export interface OpenCampaignResult {
  /** 'OPEN' as asked, or the status found (a cancel that came first). */
  status: 'OPEN' | 'CANCELLED';
  itemsTotal: number;
  /** The stored times (an earlier attempt's when it opened it). */
  openedAt: string;
  deadline: string;
}

export type ReviewerMailKind = 'invite' | 'reminder';

export interface ReviewerMailInput {
  campaignId: number;
  kind: ReviewerMailKind;
  /** The reminder's number (1, 2, …); 0 for the invitation. */
  round: number;
  /** Reviewers with a portal user id above this one (the chunks go in id order). */
  afterUserId: number;
  limit: number;
}

export interface ReviewerMailResult {
  /** Reviewers mailed by this call (a mail an earlier attempt sent is not counted again). */
  sent: number;
  /** Mails the SMTP server refused for good (5xx, a bad address): audited MAIL_FAILED at once. */
  givenUp: number;
  /** Reviewers looked at (fewer than `limit`: the round is done). */
  reviewers: number;
  lastUserId: number | null;
}

export interface MailFailureInput {
  campaignId: number;
  /** 'removal': the removed people's mails; otherwise the reviewers' invitation or reminder `round`. */
  kind: ReviewerMailKind | 'removal';
  round: number;
  /** For reviewer mails: the reviewers above this id (the chunk that failed and every later one). */
  afterUserId: number;
  reason: string;
}

export interface BeginCloseInput {
  campaignId: number;
  /** Who closes it; 'system' at the deadline. */
  closedByUsername: string;
  /** A person's signed close (AccessReviewCloseArgs.signature): taken and written with OPEN → CLOSING. */
  signature?: SignatureRef;
}

export interface RemovalBatchInput {
  campaignId: number;
  /** Items per call (people taken whole). */
  limit: number;
  /** People whose removal failed earlier in this campaign: not tried again. */
  skipUserIds: number[];
}

export interface RemovalBatchResult {
  removed: number;
  /** Remove decisions whose access had changed since the snapshot (outcome CHANGED, nothing removed). */
  changed: number;
  /** People whose removal failed while PostgreSQL answered (their items are left in place). */
  failedUserIds: number[];
  more: boolean;
}

export interface FinishCampaignInput {
  campaignId: number;
  /** People whose removal failed; mails given up. For the summary and the CLOSED audit row. */
  failed: number;
  mailsFailed: number;
}

export interface AccessReviewActivities {
  /**
   * Stores up to `limit` items in one SQL statement (INSERT … SELECT … ON CONFLICT DO NOTHING) from the
   * campaign's scope. @throws when PostgreSQL is away (retried).
   */
  snapshotAccessReviewBatch(input: SnapshotBatchInput): Promise<SnapshotBatchResult>;
  /** STARTING → OPEN with openedAt, deadline and itemsTotal; audited OPENED. */
  openAccessReview(input: OpenCampaignInput): Promise<OpenCampaignResult>;
  /**
   * Mails one chunk of reviewers (read at call time: LAO staff of the items' pools, User Support when there
   * are User Support items; for a reminder only those with undecided items), once per key.
   */
  sendAccessReviewReviewerMails(input: ReviewerMailInput): Promise<ReviewerMailResult>;
  /** Audits MAIL_FAILED for every mail of `kind`/`round` not sent. @returns how many. */
  recordAccessReviewMailFailures(input: MailFailureInput): Promise<{ failed: number }>;
  /** OPEN → CANCELLED (from STARTING or OPEN), audited; nothing removed. @returns the status found after. */
  cancelAccessReview(input: BeginCloseInput): Promise<{ status: string; itemsTotal: number }>;
  /**
   * OPEN → CLOSING (waits for the decisions in flight: the row lock), audited, and the default given to
   * every undecided item (defaulted). @returns the items given the default by this call.
   */
  beginAccessReviewClose(input: BeginCloseInput): Promise<{ defaulted: number }>;
  /** Carries out up to `limit` Remove decisions through the access-records writer, person by person. */
  applyAccessReviewRemovals(input: RemovalBatchInput): Promise<RemovalBatchResult>;
  /** Marks up to `limit` Keep items KEPT (audited) or CHANGED. */
  markAccessReviewKept(input: {
    campaignId: number;
    limit: number;
  }): Promise<{ kept: number; changed: number; more: boolean }>;
  /** Mails up to `limit` removed people (one mail per person and campaign). */
  sendAccessReviewRemovalMails(input: {
    campaignId: number;
    limit: number;
  }): Promise<{ sent: number; givenUp: number; more: boolean }>;
  /** Writes the counters, CLOSED, closedAt and the CLOSED audit row with the summary. */
  finishAccessReview(input: FinishCampaignInput): Promise<{
    itemsTotal: number;
    kept: number;
    removed: number;
    changed: number;
  }>;
}

/** What the scheduled workflow's filing answers: the campaign filed for this run, and its start. */
export interface FiledScheduledCampaign {
  campaignId: number;
  workflowId: string;
  workflowType: string;
  args: unknown[];
  searchAttributes: { key: { name: string; type: string }; value: unknown }[];
  summary: string;
  details: string;
}

export interface AccessReviewScheduleActivities {
  /**
   * Files one campaign from the schedule's definition, once per scheduled run (`runKey`: the run's workflow
   * id). @returns null when the schedule is inactive or gone.
   */
  fileScheduledAccessReview(input: {
    scheduleId: number;
    runKey: string;
    duration?: string;
    reminderEvery?: string | null;
  }): Promise<FiledScheduledCampaign | null>;
  /** Sets workflowStartedAt (rule 1: the reconciler skips it). */
  markAccessReviewStarted(input: { campaignId: number }): Promise<void>;
}

/**
 * Time-bound access (issue 25): a Temporal Schedule runs `accessExpiryWorkflow` every ACCESS_EXPIRY_EVERY. A run
 * removes every access record past its end date (in batches, through the one access-records writer, audited
 * ACCESS_EXPIRED), mails each person whose access ended, and sends the one notice ACCESS_EXPIRY_NOTICE_DAYS
 * before an end. Every step is idempotent against PostgreSQL, so a retried or overlapping run does each once.
 */
export const ACCESS_EXPIRY_WORKFLOW_TYPE = 'accessExpiryWorkflow';
export const ACCESS_EXPIRY_SCHEDULE_ID = 'access-expiry';
export const DEFAULT_ACCESS_EXPIRY_BATCH = 200;
export const DEFAULT_REMOVAL_ATTEMPTS = 12;

export interface AccessExpiryInput {
  /** NETWORK_TIME_ZONE: an access ends at the end of its end date there. */
  timeZone: string;
  /** ACCESS_EXPIRY_NOTICE_DAYS: how many days before the end the person is told. */
  noticeDays: number;
  /** Records per activity (default DEFAULT_ACCESS_EXPIRY_BATCH). */
  batchSize?: number;
  /** The instant the run takes as now (ISO 8601); absent, the workflow's own clock. Tests move the clock with it. */
  now?: string;
  /** How long the run's mails are retried before it leaves them to the next run (default '10 minutes'). */
  mailDeadline?: string;
  /**
   * Attempts of a removal batch before the run leaves what is left to the next run (default
   * DEFAULT_REMOVAL_ATTEMPTS, about ten minutes with the retry's backoff): a run never retries forever, which
   * would hold every later run back (the schedule skips overlapping runs).
   */
  removalAttempts?: number;
}

export interface AccessExpiryResult {
  removed: number;
  /** People whose removal failed in this run (left to the next run). */
  failed: number;
  mailed: number;
  notices: number;
}

export interface ExpiryBatchInput {
  now: string;
  timeZone: string;
  limit: number;
  /** The run's workflow id, written on the ACCESS_EXPIRED audit rows. */
  runKey: string;
  /** People whose removal failed earlier in this run: not tried again by it. */
  skipUserIds?: number[];
}

export interface ExpiryNoticeInput {
  now: string;
  timeZone: string;
  noticeDays: number;
  limit: number;
}

export interface AccessExpiryActivities {
  /**
   * Removes up to `limit` records past their end date, person by person: one person's failure does not stop the
   * others (`failedUserIds`). `more`: there may be others. @throws when nothing could be removed and something
   * failed (PostgreSQL away: the activity's retry waits for it).
   */
  expireAccessBatch(input: ExpiryBatchInput): Promise<{ removed: number; failedUserIds: number[]; more: boolean }>;
  /** Mails up to `limit` people whose access the expiry removed and who were not mailed yet. */
  sendAccessExpiredMails(input: { limit: number }): Promise<{ sent: number; more: boolean }>;
  /** Sends up to `limit` notices of access ending within `noticeDays` that no notice was sent for. */
  sendAccessExpiryNotices(input: ExpiryNoticeInput): Promise<{ sent: number; more: boolean }>;
}

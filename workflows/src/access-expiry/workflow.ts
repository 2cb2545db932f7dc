/**
 * One run of the access expiry (see ./types): removals first, then the mails and notices. A person whose removal
 * fails is left to the next run while the others are removed; a batch that removes nothing because PostgreSQL
 * is away is retried `removalAttempts` times, then the run ends and the next one starts over (an expiry is
 * never skipped, and no run holds the schedule forever). Mail that SMTP refuses past `mailDeadline` is left to
 * the next run, which finds it still pending (the outbox's key keeps it to one mail).
 */
import { ActivityFailure, log, proxyActivities, workflowInfo } from '@temporalio/workflow';
import { mailActivityOptions } from '../lifecycle/lifecycle';
import {
  type AccessExpiryActivities,
  type AccessExpiryInput,
  type AccessExpiryResult,
  DEFAULT_ACCESS_EXPIRY_BATCH,
  DEFAULT_REMOVAL_ATTEMPTS,
} from './types';

export async function accessExpiryWorkflow(input: AccessExpiryInput): Promise<AccessExpiryResult> {
  const now = input.now ?? new Date().toISOString();
  const limit = input.batchSize ?? DEFAULT_ACCESS_EXPIRY_BATCH;
  const result: AccessExpiryResult = { removed: 0, failed: 0, mailed: 0, notices: 0 };
  const { expireAccessBatch } = proxyActivities<AccessExpiryActivities>({
    startToCloseTimeout: '2 minutes',
    retry: {
      initialInterval: '2 seconds',
      maximumInterval: '1 minute',
      maximumAttempts: input.removalAttempts ?? DEFAULT_REMOVAL_ATTEMPTS,
    },
  });
  const skipUserIds: number[] = [];
  try {
    for (let more = true; more;) {
      const batch = await expireAccessBatch({
        now,
        timeZone: input.timeZone,
        limit,
        runKey: workflowInfo().workflowId,
        skipUserIds,
      });
      result.removed += batch.removed;
      skipUserIds.push(...(batch.failedUserIds ?? []));
      more = batch.more;
    }
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    log.warn('access expiry removals left to the next run', { reason: err.cause?.message ?? err.message });
  }
  result.failed = skipUserIds.length;
  const mail = proxyActivities<AccessExpiryActivities>(mailActivityOptions(input.mailDeadline ?? '10 minutes'));
  try {
    for (let more = true; more;) {
      const sent = await mail.sendAccessExpiredMails({ limit });
      result.mailed += sent.sent;
      more = sent.more;
    }
    for (let more = true; more;) {
      const sent = await mail.sendAccessExpiryNotices({
        now,
        timeZone: input.timeZone,
        noticeDays: input.noticeDays,
        limit,
      });
      result.notices += sent.sent;
      more = sent.more;
    }
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    log.warn('access expiry mail left to the next run', { reason: err.cause?.message ?? err.message });
  }
  return result;
}

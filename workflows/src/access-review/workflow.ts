/**
 * The campaign workflow `access-review-<id>` (issue 25 "Access review campaigns"; phases in ./types):
 * SNAPSHOT stores the items in batches and continues as new every `snapshotBatchesPerRun` batches (or when
 * the SDK suggests it); OPEN mails each reviewer once, then waits on a durable timer for the deadline, the
 * next reminder, or an ADMIN's `close`/`cancel` update; CLOSING gives undecided items the default, carries out
 * the Remove decisions through the one access-records writer, marks the Keep ones, mails the removed people
 * and ends CLOSED with a summary. A cancel ends it CANCELLED with nothing removed.
 *
 * Database steps wait for PostgreSQL (retried without an overall deadline: the campaign must finish once it
 * is back); mails are retried until `mailDeadline`, then audited MAIL_FAILED and counted, never failing the
 * campaign. Deterministic: the workflow's own clock, no I/O here.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  type RetryPolicy,
  condition,
  continueAsNew,
  log,
  proxyActivities,
  setHandler,
  workflowInfo,
  allHandlersFinished,
} from '@temporalio/workflow';
import { msToNumber } from '@temporalio/common/lib/time';
import { mailActivityOptions } from '../lifecycle/lifecycle';
import type { AccessReviewActivities, ReviewerMailKind } from './activities';
import {
  ACCESS_REVIEW_CLOSE_DURING_SNAPSHOT,
  ACCESS_REVIEW_MAIL_CHUNK,
  ACCESS_REVIEW_SYSTEM_ACTOR,
  ACCESS_REVIEW_UPDATE_REFUSED,
  type AccessReviewCloseArgs,
  type AccessReviewInput,
  type AccessReviewProgress,
  type AccessReviewSummary,
  DEFAULT_KEEP_BATCH,
  DEFAULT_REMOVAL_BATCH,
  DEFAULT_SNAPSHOT_BATCH,
  DEFAULT_SNAPSHOT_BATCHES_PER_RUN,
  accessReviewProgressQuery,
  cancelAccessReviewUpdate,
  closeAccessReviewUpdate,
} from './types';

/** The alreadyClosing text of the contract (ACCESS_REVIEW_MESSAGES), kept here: workflow code imports no zod. */
export const ALREADY_CLOSING = 'This access review campaign is already closing or closed.';

/** PostgreSQL steps: no overall deadline, backoff to one minute (the campaign waits for the database). */
const WAIT_FOR_DATABASE: RetryPolicy = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '1 minute',
};

const db = proxyActivities<AccessReviewActivities>({ startToCloseTimeout: '1 minute', retry: WAIT_FOR_DATABASE });
/** A snapshot batch is one statement; a short timeout lets a killed worker's batch be retried soon. */
const DEFAULT_SNAPSHOT_BATCH_TIMEOUT = '30 seconds';
/** Removals heartbeat per person, so a killed worker's batch is retried after the heartbeat timeout. */
const DEFAULT_REMOVAL_HEARTBEAT_TIMEOUT = '30 seconds';

export async function accessReviewWorkflow(input: AccessReviewInput): Promise<AccessReviewSummary> {
  const { campaignId } = input;
  const progress: AccessReviewProgress = {
    phase: input.phase ?? 'SNAPSHOT',
    itemsStored: input.snapshotStored ?? 0,
    remindersSent: input.remindersSent ?? 0,
    removed: 0,
  };
  let closeBy: string | null = null;
  // A person's signed close: handed to the close's first activity (no new command; the system's close has none).
  let closeSignature: AccessReviewCloseArgs['signature'];
  let cancelBy: string | null = null;
  // Set once every item is stored and the campaign is being opened: from then on the row may already say OPEN
  // (the activity committed, its result not yet handled), so a close is taken and acted on once open.
  let opening = false;
  let mailsFailed = input.mailsFailed ?? 0;
  const mail = proxyActivities<AccessReviewActivities>(mailActivityOptions(input.mailDeadline ?? '10 minutes'));
  // Timeout values are options of the scheduled activity, not commands: taking them from the input (carried
  // across continue-as-new) leaves every recorded history's command sequence as it was.
  const snapshot = proxyActivities<AccessReviewActivities>({
    startToCloseTimeout: input.snapshotBatchTimeout ?? DEFAULT_SNAPSHOT_BATCH_TIMEOUT,
    retry: WAIT_FOR_DATABASE,
  });
  const removals = proxyActivities<AccessReviewActivities>({
    startToCloseTimeout: '5 minutes',
    heartbeatTimeout: input.removalHeartbeatTimeout ?? DEFAULT_REMOVAL_HEARTBEAT_TIMEOUT,
    retry: WAIT_FOR_DATABASE,
  });

  setHandler(accessReviewProgressQuery, () => ({ ...progress }));
  const refuseOnceClosing = (_args?: AccessReviewCloseArgs) => {
    if (
      closeBy !== null ||
      cancelBy !== null ||
      progress.phase === 'CLOSING' ||
      progress.phase === 'CLOSED' ||
      progress.phase === 'CANCELLED'
    ) {
      throw ApplicationFailure.nonRetryable(ALREADY_CLOSING, ACCESS_REVIEW_UPDATE_REFUSED);
    }
  };
  setHandler(
    closeAccessReviewUpdate,
    ({ username, signature }: AccessReviewCloseArgs) => {
      closeBy = username;
      closeSignature = signature;
      return { status: 'CLOSING' as const };
    },
    {
      validator: (args: AccessReviewCloseArgs) => {
        refuseOnceClosing(args);
        if (progress.phase === 'SNAPSHOT' && !opening) {
          throw ApplicationFailure.nonRetryable(ACCESS_REVIEW_CLOSE_DURING_SNAPSHOT, ACCESS_REVIEW_UPDATE_REFUSED);
        }
      },
    },
  );
  setHandler(
    cancelAccessReviewUpdate,
    ({ username }: AccessReviewCloseArgs) => {
      cancelBy = username;
      return { status: 'CANCELLED' as const };
    },
    { validator: refuseOnceClosing },
  );

  /** Continues as new with `carry`, once the updates in flight have finished (their results reach callers). */
  const goOnAsNew = async (carry: Partial<AccessReviewInput>): Promise<never> => {
    await condition(allHandlersFinished);
    return continueAsNew<typeof accessReviewWorkflow>({ ...input, ...carry });
  };

  const cancel = async (): Promise<AccessReviewSummary> => {
    progress.phase = 'CANCELLED';
    const done = await db.cancelAccessReview({ campaignId, closedByUsername: cancelBy ?? ACCESS_REVIEW_SYSTEM_ACTOR });
    await condition(allHandlersFinished);
    return {
      status: 'CANCELLED',
      itemsTotal: done.itemsTotal,
      kept: 0,
      removed: 0,
      changed: 0,
      failed: 0,
      mailsFailed,
    };
  };

  // --- SNAPSHOT ---
  let openedAt = input.openedAt;
  let deadline = input.deadline;
  if (progress.phase === 'SNAPSHOT') {
    const limit = input.snapshotBatch ?? DEFAULT_SNAPSHOT_BATCH;
    const perRun = input.snapshotBatchesPerRun ?? DEFAULT_SNAPSHOT_BATCHES_PER_RUN;
    let afterId = input.snapshotAfterId ?? 0;
    for (let batches = 0; ; batches += 1) {
      if (cancelBy !== null) return cancel();
      if (batches >= perRun || workflowInfo().continueAsNewSuggested) {
        return goOnAsNew({ snapshotAfterId: afterId, snapshotStored: progress.itemsStored });
      }
      const batch = await snapshot.snapshotAccessReviewBatch({ campaignId, afterId, limit });
      progress.itemsStored += batch.stored;
      if (batch.lastId !== null) afterId = batch.lastId;
      if (batch.picked < limit) break;
    }
    if (cancelBy !== null) return cancel();
    const now = Date.now();
    opening = true;
    const opened = await db.openAccessReview({
      campaignId,
      openedAt: new Date(now).toISOString(),
      deadline: new Date(now + msToNumber(input.duration)).toISOString(),
    });
    if (opened.status === 'CANCELLED') {
      progress.phase = 'CANCELLED';
      return {
        status: 'CANCELLED',
        itemsTotal: opened.itemsTotal,
        kept: 0,
        removed: 0,
        changed: 0,
        failed: 0,
        mailsFailed,
      };
    }
    progress.phase = 'OPEN';
    ({ openedAt, deadline } = opened);
    if (opened.itemsTotal > 0) mailsFailed += await mailReviewers(mail, campaignId, 'invite', 0);
    else closeBy ??= ACCESS_REVIEW_SYSTEM_ACTOR; // nothing to review: it closes at once
  }

  // --- OPEN: the deadline, reminders, an ADMIN's close or cancel ---
  const openedMs = Date.parse(openedAt!);
  const deadlineMs = Date.parse(deadline!);
  const everyMs = input.reminderEvery ? msToNumber(input.reminderEvery) : null;
  while (closeBy === null && cancelBy === null && Date.now() < deadlineMs) {
    const reminderAt = everyMs ? openedMs + (progress.remindersSent + 1) * everyMs : Infinity;
    const wakeAt = Math.min(deadlineMs, reminderAt);
    if (wakeAt > Date.now() && (await condition(() => closeBy !== null || cancelBy !== null, wakeAt - Date.now()))) {
      break;
    }
    // A reminder is never sent at or after the deadline.
    if (everyMs && reminderAt < deadlineMs && Date.now() >= reminderAt && Date.now() < deadlineMs) {
      const round = progress.remindersSent + 1;
      mailsFailed += await mailReviewers(mail, campaignId, 'reminder', round);
      // Rounds that passed while mails were retried are skipped, not sent late one after another.
      progress.remindersSent = Math.max(round, Math.floor((Date.now() - openedMs) / everyMs));
      if (workflowInfo().continueAsNewSuggested && closeBy === null && cancelBy === null) {
        return goOnAsNew({ phase: 'OPEN', openedAt, deadline, remindersSent: progress.remindersSent, mailsFailed });
      }
    }
  }
  if (cancelBy !== null) return cancel();

  // --- CLOSING ---
  progress.phase = 'CLOSING';
  await db.beginAccessReviewClose({
    campaignId,
    closedByUsername: closeBy ?? ACCESS_REVIEW_SYSTEM_ACTOR,
    ...(closeSignature ? { signature: closeSignature } : {}),
  });
  const limit = input.removalBatch ?? DEFAULT_REMOVAL_BATCH;
  const skipUserIds: number[] = [];
  for (let more = true; more;) {
    const batch = await removals.applyAccessReviewRemovals({ campaignId, limit, skipUserIds });
    progress.removed += batch.removed;
    skipUserIds.push(...batch.failedUserIds);
    more = batch.more;
  }
  for (let more = true; more;) {
    more = (await db.markAccessReviewKept({ campaignId, limit: DEFAULT_KEEP_BATCH })).more;
  }
  try {
    for (let more = true; more;) {
      const sent = await mail.sendAccessReviewRemovalMails({ campaignId, limit });
      mailsFailed += sent.givenUp ?? 0;
      more = sent.more;
    }
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    mailsFailed += await recordMailFailures(campaignId, 'removal', 0, 0, err);
  }
  const counts = await db.finishAccessReview({ campaignId, failed: skipUserIds.length, mailsFailed });
  progress.phase = 'CLOSED';
  await condition(allHandlersFinished);
  return { status: 'CLOSED', ...counts, failed: skipUserIds.length, mailsFailed };
}

/**
 * Mails every reviewer of `kind`/`round`, a chunk per activity (an address refused for good is audited by the
 * activity at once). A chunk that finally fails ends the round: its reviewers and every later one not mailed
 * are audited MAIL_FAILED. @returns the mails given up.
 */
async function mailReviewers(
  mail: AccessReviewActivities,
  campaignId: number,
  kind: ReviewerMailKind,
  round: number,
): Promise<number> {
  let afterUserId = 0;
  let givenUp = 0;
  try {
    for (;;) {
      const chunk = await mail.sendAccessReviewReviewerMails({
        campaignId,
        kind,
        round,
        afterUserId,
        limit: ACCESS_REVIEW_MAIL_CHUNK,
      });
      givenUp += chunk.givenUp ?? 0;
      if (chunk.lastUserId !== null) afterUserId = chunk.lastUserId;
      if (chunk.reviewers < ACCESS_REVIEW_MAIL_CHUNK) return givenUp;
    }
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    return givenUp + (await recordMailFailures(campaignId, kind, round, afterUserId, err));
  }
}

/** Audits the mails given up (waiting for PostgreSQL); @returns how many. */
async function recordMailFailures(
  campaignId: number,
  kind: ReviewerMailKind | 'removal',
  round: number,
  afterUserId: number,
  err: ActivityFailure,
): Promise<number> {
  const reason = err.cause?.message ?? err.message;
  log.warn('access review mails given up', { campaignId, kind, round, reason });
  const { failed } = await db.recordAccessReviewMailFailures({ campaignId, kind, round, afterUserId, reason });
  return failed;
}

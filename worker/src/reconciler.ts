/**
 * The reconciler of rule 1 ("commit, then start"): filing commits the request row first and then starts
 * its workflow; when that start failed (Temporal away, a crash between commit and start), the row stays
 * unmarked. This starts the workflow of every row left unmarked after a grace period, with the same
 * policies as filing (USE_EXISTING, REJECT_DUPLICATE), marks the row, and logs and audits the repair; and it
 * stores ABORTED a proxy batch whose workflow closed while its row says RUNNING, starts the back-channel
 * logout of every notice a revocation wrote (issue 22), every access review campaign left unstarted
 * (issue 25, access-review-reconcile.ts) and every provisioning notice (issue 41, provisioning-notices.ts). Runs on worker start and on
 * a timer; safe to run from several workers at once.
 */
import type { Client } from '@temporalio/client';
import type { PrismaClient } from '@portal/db';
import { batchRequestStart, requestStart, startOnce, workflowIdOf } from '@portal/workflows';
import { type KindStore, KIND_STORES } from './kinds';
import {
  abortClosedBatch,
  batchesOfRequests,
  runningBatches,
  startUnstartedBatch,
  unstartedBatches,
} from './kinds/proxy-batch/reconcile';
import type { UnstartedRequest } from './kinds/types';
import { startLogoutNotice, unstartedLogoutNotices } from './sso-logout-reconcile';
import { startProvisioningNotices } from './provisioning-notices';
import { startUnstartedAccessReview, unstartedAccessReviews } from './access-review-reconcile';

export interface ReconcilerOptions {
  prisma: PrismaClient;
  client: Client;
  taskQueue: string;
  /** Rows younger than this (ms) are left to their filing, which may still be starting them. */
  graceMs: number;
  /** Handed to the workflows it starts, as filing does (MAIL_DEADLINE, WRITE_DEADLINE, WRITE_ATTEMPT_TIMEOUT). */
  notificationDeadline?: string;
  writeDeadline?: string;
  writeAttemptTimeout?: string;
  /** The provisioning runs' timing it starts with (PROVISIONING_ATTEMPT_TIMEOUT, PROVISIONING_MAX_RETRY_INTERVAL). */
  provisioning?: { attemptTimeout?: string; maxRetryInterval?: string };
  log?: (message: string) => void;
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Starts the workflow of one unstarted request row and marks it, with an audit row, through the same typed
 * start as its filing: a request filed by a proxy batch (`batchId`) as the batch's request (`ProxyBatchId`, the
 * batch's requester label), whichever of the batch and the reconciler starts it. @returns the workflow id.
 */
async function startUnstartedRequest(
  opts: ReconcilerOptions,
  store: KindStore,
  row: UnstartedRequest,
  batchId: number | undefined,
): Promise<string> {
  const def = store.definition;
  const input = {
    requestId: row.requestId,
    subjectUserId: row.subjectUserId,
    requesterUserId: row.requesterUserId,
    notificationDeadline: opts.notificationDeadline,
    writeDeadline: opts.writeDeadline,
    writeAttemptTimeout: opts.writeAttemptTimeout,
    ...(row.approvalStages === undefined ? {} : { approvalStages: row.approvalStages }),
  };
  const start =
    batchId === undefined
      ? requestStart(def, input, { subjectLabel: row.subjectLabel, requesterLabel: row.requesterLabel })
      : batchRequestStart(batchId, input, { subjectLabel: row.subjectLabel, proxyLabel: row.requesterLabel });
  const { workflowId } = start;
  const outcome = await startOnce(opts.client, opts.taskQueue, start);
  await opts.prisma.$transaction(async (tx) => {
    await store.markStarted(tx, row.requestId);
    await tx.auditEvent.createMany({
      data: [
        {
          actorUsername: 'system',
          entityType: store.entityType,
          entityId: String(row.requestId),
          action: 'WORKFLOW_RECONCILED',
          after: { workflowId, outcome },
          workflowId,
          idempotencyKey: `${workflowId}:reconciled`,
        },
      ],
      skipDuplicates: true,
    });
  });
  opts.log?.(
    `reconciler: ${workflowId} had no confirmed start; ${outcome === 'STARTED' ? 'started' : 'found closed'} and marked`,
  );
  return workflowId;
}

/**
 * One pass over every kind's unstarted rows, the unstarted proxy batches and the RUNNING batches whose
 * workflow closed. Each row is repaired in its own try/catch: a row that throws is logged and the pass goes
 * on with the next (issue 21 case 8). @returns the workflows it started (or found closed) and marked, and the
 * batches it stored ABORTED.
 */
export async function reconcileUnstartedRequests(opts: ReconcilerOptions): Promise<string[]> {
  const repaired: string[] = [];
  const each = async <R>(rows: R[], name: (row: R) => string, repair: (row: R) => Promise<string | null>) => {
    for (const row of rows) {
      try {
        const done = await repair(row);
        if (done) repaired.push(done);
      } catch (err) {
        opts.log?.(`reconciler: ${name(row)} not repaired: ${messageOf(err)}`);
      }
    }
  };
  const before = new Date(Date.now() - opts.graceMs);
  for (const store of Object.values(KIND_STORES)) {
    const def = store.definition;
    const rows = await store.unstarted(opts.prisma, before);
    // Only access-change requests are filed by batches (the item holds the access-change request's id).
    const batchOf =
      def.kind === 'ACCESS_CHANGE'
        ? await batchesOfRequests(
            opts.prisma,
            rows.map((r) => r.requestId),
          )
        : new Map<number, number>();
    await each(
      rows,
      (row) => workflowIdOf(def, row.requestId),
      (row) => startUnstartedRequest(opts, store, row, batchOf.get(row.requestId)),
    );
  }
  await each(
    await unstartedBatches(opts.prisma, before),
    (row) => `proxy batch ${row.id}`,
    (row) => startUnstartedBatch(opts, row),
  );
  await each(
    await runningBatches(opts.prisma),
    (row) => row.workflowId,
    (row) => abortClosedBatch(opts, row),
  );
  await each(
    await unstartedAccessReviews(opts.prisma, before),
    (row) => row.workflowId,
    (row) => startUnstartedAccessReview(opts, row),
  );
  await each(
    await unstartedLogoutNotices(opts.prisma),
    (row) => `back-channel logout notice ${row.id}`,
    (row) => startLogoutNotice(opts, row),
  );
  // Provisioning notices no listener started (issue 41), one pass's worth: the next pass takes the rest.
  try {
    const signalled = await startProvisioningNotices({ ...opts, ...opts.provisioning });
    if (signalled) repaired.push(`${signalled} provisioning notice(s)`);
  } catch (err) {
    opts.log?.(`reconciler: provisioning notices not started: ${messageOf(err)}`);
  }
  return repaired;
}

/**
 * Runs `reconcileUnstartedRequests` now and every `everyMs`, logging (never throwing) a failed pass.
 * @returns a stop function.
 */
export function startReconciler(opts: ReconcilerOptions & { everyMs: number }): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const pass = async () => {
    try {
      await reconcileUnstartedRequests(opts);
    } catch (err) {
      opts.log?.(`reconciler: pass failed: ${messageOf(err)}`);
    }
    if (!stopped) timer = setTimeout(pass, opts.everyMs);
  };
  void pass();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

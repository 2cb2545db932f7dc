/**
 * The reconciler of rule 1 ("commit, then start"): filing commits the request row first and then starts
 * its workflow; when that start failed (Temporal away, a crash between commit and start), the row stays
 * unmarked. This starts the workflow of every row left unmarked after a grace period, with the same
 * policies as filing (USE_EXISTING, REJECT_DUPLICATE), marks the row, and logs and audits the repair. Runs
 * on worker start and on a timer; safe to run from several workers at once.
 */
import type { Client } from '@temporalio/client';
import type { PrismaClient } from '@portal/db';
import { startRequestWorkflow, workflowIdOf } from '@portal/workflows';
import { KIND_STORES } from './kinds';
import { reconcileUnstartedBatches } from './kinds/proxy-batch/reconcile';

export interface ReconcilerOptions {
  prisma: PrismaClient;
  client: Client;
  taskQueue: string;
  /** Rows younger than this (ms) are left to their filing, which may still be starting them. */
  graceMs: number;
  notificationDeadline?: string;
  log?: (message: string) => void;
}

/** One pass over every kind. @returns the request workflows it started (or found closed) and marked. */
export async function reconcileUnstartedRequests(opts: ReconcilerOptions): Promise<string[]> {
  const repaired: string[] = [];
  const before = new Date(Date.now() - opts.graceMs);
  for (const store of Object.values(KIND_STORES)) {
    const def = store.definition;
    for (const row of await store.unstarted(opts.prisma, before)) {
      const workflowId = workflowIdOf(def, row.requestId);
      const outcome = await startRequestWorkflow(
        opts.client,
        def,
        {
          requestId: row.requestId,
          subjectUserId: row.subjectUserId,
          requesterUserId: row.requesterUserId,
          notificationDeadline: opts.notificationDeadline,
        },
        { taskQueue: opts.taskQueue, subjectLabel: row.subjectLabel, requesterLabel: row.requesterLabel },
      );
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
      repaired.push(workflowId);
    }
  }
  repaired.push(...(await reconcileUnstartedBatches({ ...opts, before })));
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
      opts.log?.(`reconciler: pass failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (!stopped) timer = setTimeout(pass, opts.everyMs);
  };
  void pass();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/**
 * The two actions of Configure → Systems on a provisioning connection (issue 41 "with 'Re-sync this person' and
 * 'Reconcile now' (audited)"), both only while the connection is on:
 * - re-sync: one `ProvisioningNotice` for the person at the system, the account marked PENDING, and the
 *   `pg_notify`, in one transaction with the audit row (noteProvisioning, as every changing path writes them);
 *   the worker's listener signal-with-starts the person's convergence when it commits;
 * - reconcile: a report row (RUNNING, who asked) and its audit row committed, then the reconciliation workflow
 *   started (commit, then start: the workflows package's commitThenStart). Nothing else starts a report row that
 *   stayed unstarted, so a start Temporal did not take marks the row FAILED and answers 503.
 */
import {
  PROVISIONING_MESSAGES,
  type ProvisioningResyncBody,
  type ReconciliationSummary,
  USER_DETAIL_MESSAGES,
} from '@portal/contract';
import { noteProvisioning } from '@portal/db';
import {
  type WorkflowStart,
  commitThenStart,
  provisionReconcileStart,
  provisionReconcileWorkflowId,
} from '@portal/workflows';
import type { Deps } from '../../deps';
import { notFound, unavailable } from '../../http/errors';
import { type AuditActor, recordAudit } from '../../shared/audit-log';
import { ENTITY, type Log, TEMPORAL_DEADLINE_MS, TX_OPTIONS, describe, enabledConnection } from './common';
import { summaryView } from './views';

/**
 * POST .../system_access/{id}/provisioning/resync: converges `body.portalUserId`'s account at the system again
 * (module note). @throws 404 (unknown system, user or connection), 422 (fixed system; provisioning is off).
 */
export async function resyncPerson(
  deps: Deps,
  actor: AuditActor,
  systemId: number,
  body: ProvisioningResyncBody,
): Promise<Record<string, never>> {
  await deps.prisma.$transaction(async (tx) => {
    await enabledConnection(tx, systemId);
    const person = await tx.portalUser.findUnique({ where: { id: body.portalUserId }, select: { id: true } });
    if (!person) throw notFound(USER_DETAIL_MESSAGES.loadUserFailed);
    const notices = await noteProvisioning(tx, person.id, [systemId]);
    await recordAudit(tx, actor, {
      entityType: ENTITY,
      entityId: systemId,
      action: 'RESYNC_REQUESTED',
      after: { portalUserId: person.id, notices },
    });
  }, TX_OPTIONS);
  return {};
}

/** The typed start of report `reconciliationId`'s run (the Temporal UI filters it by system). */
function reconcileStart(systemAccessId: number, reconciliationId: number): WorkflowStart {
  const start = provisionReconcileStart({ systemAccessId, reconciliationId });
  return {
    workflowType: start.workflowType,
    workflowId: provisionReconcileWorkflowId(systemAccessId, reconciliationId),
    args: start.args,
    searchAttributes: start.typedSearchAttributes,
    summary: start.staticSummary,
    details: `Reconcile now, report #${reconciliationId}`,
  };
}

/** The stored error's limit (the column's). */
const ERROR_MAX = 1024;

/**
 * POST .../system_access/{id}/provisioning/reconcile: 'Reconcile now' (module note). @returns the new run's
 * summary (RUNNING). @throws 404 (unknown system; no connection), 422 (fixed system; provisioning is off), 503
 * when Temporal did not take the start (the run is then FAILED with the reason).
 */
export async function reconcileNow(
  deps: Deps,
  actor: AuditActor,
  systemId: number,
  log: Log,
): Promise<ReconciliationSummary> {
  const filed = await commitThenStart(
    { client: deps.temporal, taskQueue: deps.cfg.TEMPORAL_TASK_QUEUE, deadlineMs: TEMPORAL_DEADLINE_MS },
    {
      commit: () =>
        deps.prisma.$transaction(async (tx) => {
          await enabledConnection(tx, systemId);
          const row = await tx.provisioningReconciliation.create({
            data: { systemAccessId: systemId, status: 'RUNNING', requestedBy: actor.username },
          });
          await recordAudit(tx, actor, {
            entityType: ENTITY,
            entityId: systemId,
            action: 'RECONCILE_REQUESTED',
            after: { reconciliationId: row.id },
          });
          return row;
        }, TX_OPTIONS),
      startOf: (row) => reconcileStart(systemId, row.id),
      // The run's own first activity takes the row (beginReconciliation): there is no started mark to set.
      markStarted: async () => undefined,
    },
  );
  if (filed.start !== 'DEFERRED') return summaryView(filed.committed);
  const why = describe(filed.error);
  log.error({ err: why }, `provisioning: reconciliation ${filed.committed.id} of system ${systemId} not started`);
  await deps.prisma.provisioningReconciliation
    .update({
      where: { id: filed.committed.id },
      data: { status: 'FAILED', finishedAt: new Date(), error: `Not started: ${why}`.slice(0, ERROR_MAX) },
    })
    .catch((err: unknown) => log.error({ err: describe(err) }, 'provisioning: marking the run FAILED failed'));
  throw unavailable(PROVISIONING_MESSAGES.reconcileUnavailable);
}

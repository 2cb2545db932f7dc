/**
 * Audit Integrity's reads and its 'Verify now' (docs/decisions.md "A tamper-evident audit trail"):
 * - the last verification is the newest AUDIT_VERIFIED row (prisma/src/audit-trail/record.ts), found through
 *   the (entityType, entityId) index;
 * - the newest seal, and the rows above its newest id (awaiting their seal: a range of the primary key);
 * - `sealing`: the newest seal is younger than AUDIT_INTEGRITY_SEALING_WITHIN_MS, so the sealer is at work
 *   (the schedule writes a seal only when there are new rows, and a verification writes one: a trail that is
 *   read only may look idle, which the screen words as a hint, not an alarm);
 * - `running` / `lastRunFailed` from describing the workflow `audit-verify`. Temporal not answering the read
 *   reads as not running (the screen still shows what PostgreSQL holds); it fails 'Verify now' with 503.
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import {
  AUDIT_INTEGRITY_SEALING_WITHIN_MS,
  AUDIT_INTEGRITY_TEXTS,
  type AuditIntegrity,
  type AuditVerificationSummary,
  AuditVerificationSummarySchema,
} from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import { auditVerifyWorkflowId, newestWitnessedSeal, startAuditVerify } from '@portal/workflows';
import type { AuthContext } from '../../auth/guard';
import type { Deps } from '../../deps';
import { unavailable } from '../../http/errors';

/** How long (ms) 'Verify now' waits for Temporal (the witness and the start). */
export const AUDIT_INTEGRITY_TEMPORAL_DEADLINE_MS = 10_000;
/** How long (ms) the screen's read waits for Temporal's describe: shorter, the screen polls it. */
export const AUDIT_INTEGRITY_DESCRIBE_DEADLINE_MS = 3_000;

const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** The newest AUDIT_VERIFIED row as a summary; null when there is none (or its body is not one). */
async function lastVerification(prisma: PrismaClient): Promise<AuditVerificationSummary | null> {
  const row = await prisma.auditEvent.findFirst({
    where: { entityType: 'AuditTrail', entityId: 'seals', action: 'AUDIT_VERIFIED' },
    orderBy: { id: 'desc' },
    select: { at: true, actorUsername: true, after: true },
  });
  if (!row) return null;
  const parsed = AuditVerificationSummarySchema.safeParse({
    ...(row.after as object),
    at: row.at.toISOString(),
    by: row.actorUsername,
  });
  return parsed.success ? parsed.data : null;
}

/** The run of `audit-verify`: running, and when it ended without a result (failed, timed out, terminated). */
async function verifyRun(deps: Deps): Promise<{ running: boolean; failedAt: Date | null }> {
  const workflowId = auditVerifyWorkflowId(deps.cfg.TEMPORAL_TASK_QUEUE);
  try {
    const d = await deps.temporal.withDeadline(Date.now() + AUDIT_INTEGRITY_DESCRIBE_DEADLINE_MS, () =>
      deps.temporal.workflow.getHandle(workflowId).describe(),
    );
    const status = d.status.name;
    if (status === 'RUNNING') return { running: true, failedAt: null };
    return { running: false, failedAt: status === 'COMPLETED' ? null : (d.closeTime ?? null) };
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError))
      console.error(`audit integrity: describing ${workflowId} failed: ${describe(err)}`);
    return { running: false, failedAt: null };
  }
}

/** GET /rest/secure/audit_integrity. @throws what PostgreSQL answers (Temporal's failures are absorbed). */
export async function loadAuditIntegrity(deps: Deps, now = new Date()): Promise<AuditIntegrity> {
  const { prisma } = deps;
  const [last, seal, run] = await Promise.all([
    lastVerification(prisma),
    prisma.auditSeal.findFirst({
      orderBy: { id: 'desc' },
      select: { id: true, sealedAt: true, rowCount: true, maxId: true },
    }),
    verifyRun(deps),
  ]);
  const awaitingSeal = await prisma.auditEvent.count({ where: seal ? { id: { gt: seal.maxId } } : {} });
  return {
    lastVerification: last,
    running: run.running,
    lastRunFailed: !!run.failedAt && (!last || run.failedAt.getTime() > Date.parse(last.at)),
    newestSeal: seal ? { id: String(seal.id), sealedAt: seal.sealedAt.toISOString(), rows: seal.rowCount } : null,
    awaitingSeal,
    sealing: !!seal && now.getTime() - seal.sealedAt.getTime() <= AUDIT_INTEGRITY_SEALING_WITHIN_MS,
  };
}

/**
 * POST /rest/secure/audit_integrity/verify: reads the witness (the seal schedule's newest result, null when
 * Temporal has none) and starts `audit-verify` as `actor`, or joins the run already going.
 * @throws HttpError 503 when Temporal fails or does not answer within the deadline (nothing started).
 */
export async function startVerification(deps: Deps, actor: AuthContext): Promise<{ running: true }> {
  try {
    await deps.temporal.withDeadline(Date.now() + AUDIT_INTEGRITY_TEMPORAL_DEADLINE_MS, async () => {
      const witness = await newestWitnessedSeal(deps.temporal);
      await startAuditVerify(deps.temporal, deps.cfg.TEMPORAL_TASK_QUEUE, {
        witness,
        actor: { userId: actor.userId, username: actor.username },
      });
    });
  } catch (err) {
    console.error(
      `audit integrity: starting ${auditVerifyWorkflowId(deps.cfg.TEMPORAL_TASK_QUEUE)} failed: ${describe(err)}`,
    );
    throw unavailable(AUDIT_INTEGRITY_TEXTS.temporalUnavailable);
  }
  return { running: true };
}

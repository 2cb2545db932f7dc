/**
 * An ADMIN's 'Verify now' (docs/decisions.md "A tamper-evident audit trail", the Audit Integrity screen): the
 * workflow `audit-verify` runs one verification of the whole audit trail (prisma/src/audit-trail/verify.ts)
 * and records it as an AUDIT_VERIFIED row with the ADMIN as actor. The id is fixed per task queue, so a second
 * start while one runs joins it (USE_EXISTING) and one verification at a time reads the trail.
 */
import type { AuditSealRef } from '../audit-seal/types';

export const AUDIT_VERIFY_WORKFLOW_TYPE = 'auditVerifyWorkflow';
/**
 * The workflow id of the verification on `taskQueue`: `audit-verify:<task queue>`. Scoped by the task queue
 * because deployments sharing one Temporal namespace (or tests sharing one dev server) each poll a queue of
 * their own: a start on a queue no worker polls must not be joined by a deployment whose worker runs.
 */
export function auditVerifyWorkflowId(taskQueue: string): string {
  return `audit-verify:${taskQueue}`;
}

export interface AuditVerifyInput {
  /** The newest seal Temporal's history witnessed (newestWitnessedSeal), null when none is known. */
  witness: AuditSealRef | null;
  /** Who asked: written as the AUDIT_VERIFIED row's actor. */
  actor: { userId: number | null; username: string };
  /** The verification step's start-to-close timeout (default '30 minutes'); tests shrink it. */
  stepTimeout?: string;
}

/** What a verification found, in short: the first findings only (the row counts them all). */
export interface AuditVerifySummary {
  ok: boolean;
  rows: number;
  seals: number;
  awaitingSeal: number;
  findingsTotal: number;
  /** The first findings, at most AUDIT_VERIFY_MAX_FINDINGS (verify.ts `AuditFinding`). */
  findings: {
    kind: string;
    rowId: string | null;
    toRowId?: string;
    sealId: string | null;
    from: string | null;
    to: string | null;
    detail: string;
  }[];
  ms: number;
}

/** Findings a summary carries at most (a workflow result stays small). */
export const AUDIT_VERIFY_MAX_FINDINGS = 100;

export interface AuditVerifyActivities {
  /**
   * Verifies the audit trail and writes the AUDIT_VERIFIED row. @throws a non-retryable failure when the worker
   * has no key to verify with; whatever PostgreSQL answers otherwise (retried).
   */
  verifyAuditTrailStep(input: Omit<AuditVerifyInput, 'stepTimeout'>): Promise<AuditVerifySummary>;
}

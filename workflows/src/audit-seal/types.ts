/**
 * The audit trail's seals (docs/decisions.md "A tamper-evident audit trail"): a Temporal Schedule runs
 * `auditSealWorkflow` every AUDIT_SEAL_EVERY. A run seals the rows committed since the newest seal, one seal
 * per step of at most `maxRowsPerSeal` rows, until it has caught up. Its result carries the newest seal's id
 * and hash, so Temporal's history witnesses the chain outside PostgreSQL (cutting off the newest rows and seals
 * together is then detected by the verifier).
 */
export const AUDIT_SEAL_WORKFLOW_TYPE = 'auditSealWorkflow';
export const AUDIT_SEAL_SCHEDULE_ID = 'audit-seal';
export const DEFAULT_AUDIT_SEAL_MAX_ROWS = 50_000;

export interface AuditSealInput {
  /** Rows per seal at most (default DEFAULT_AUDIT_SEAL_MAX_ROWS). */
  maxRowsPerSeal?: number;
  /** Seals one run writes at most before leaving the rest to the next run (default 200). */
  maxSeals?: number;
  /** The start-to-close timeout of each sealing step (default '2 minutes'); tests shrink it. */
  stepTimeout?: string;
}

export interface AuditSealRef {
  id: string;
  hash: string;
}

export interface AuditSealResult {
  seals: number;
  rows: number;
  /** The newest seal after the run (null: nothing was ever sealed). */
  newest: AuditSealRef | null;
}

export interface AuditSealActivities {
  /**
   * Writes the next seal of at most `maxRows` rows (prisma/src/audit-trail/seal.ts). `more`: rows are
   * waiting beyond it. @throws when PostgreSQL is away (the retry waits for it).
   */
  sealAuditStep(input: { maxRows: number }): Promise<{
    sealed: (AuditSealRef & { rows: number }) | null;
    newest: AuditSealRef | null;
    more: boolean;
  }>;
}

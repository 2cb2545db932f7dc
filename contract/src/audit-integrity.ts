/**
 * Audit Integrity (/app/audit-trail/integrity, ADMIN; docs/decisions.md "A tamper-evident audit trail"): the
 * last verification of the sealed audit trail, the newest seal and the rows awaiting theirs, and 'Verify now',
 * which runs the verification as the workflow `audit-verify` (a second start while one runs joins it).
 *
 * Routes (api/src/features/audit-integrity):
 * - GET  /rest/secure/audit_integrity: `AuditIntegrity`;
 * - POST /rest/secure/audit_integrity/verify: 202 `{ running: true }`, 503 when Temporal does not answer.
 * Pure module: the API, the worker and the browser share it.
 */
import { z } from 'zod';

/** What the verifier names (prisma/src/audit-trail/verify.ts `AuditFindingKind`). */
export const AUDIT_FINDING_KINDS = [
  'ROW_CHANGED',
  'ROW_MISSING',
  'ROW_OUTSIDE_SEALS',
  'ROW_INSERTED_LATE',
  'SEAL_ALTERED',
  'SEAL_MISSING',
  'SEALS_CUT_OFF',
] as const;
export type AuditFindingKindName = (typeof AUDIT_FINDING_KINDS)[number];

/** A finding's kind in words (the screen's findings table). */
export const AUDIT_FINDING_LABELS: Record<AuditFindingKindName, string> = {
  ROW_CHANGED: 'Entry changed',
  ROW_MISSING: 'Entries missing',
  ROW_OUTSIDE_SEALS: 'Entry outside every seal',
  ROW_INSERTED_LATE: 'Entry inserted late',
  SEAL_ALTERED: 'Seal altered',
  SEAL_MISSING: 'Seal missing',
  SEALS_CUT_OFF: 'Newest seals cut off',
};

const instant = z.iso.datetime({ offset: true });

/** One finding as the AUDIT_VERIFIED row stores it (the first ones only; `findingsTotal` counts all). */
export const AuditIntegrityFindingSchema = z.object({
  kind: z.enum(AUDIT_FINDING_KINDS),
  rowId: z.string().nullable(),
  toRowId: z.string().optional(),
  sealId: z.string().nullable(),
  from: instant.nullable(),
  to: instant.nullable(),
  detail: z.string(),
});
export type AuditIntegrityFinding = z.infer<typeof AuditIntegrityFindingSchema>;

/** The newest AUDIT_VERIFIED row: when, by whom (a username, or 'audit:verify'), and what it found. */
export const AuditVerificationSummarySchema = z.object({
  at: instant,
  by: z.string(),
  ok: z.boolean(),
  rows: z.number().int(),
  seals: z.number().int(),
  awaitingSeal: z.number().int(),
  findingsTotal: z.number().int(),
  findings: z.array(AuditIntegrityFindingSchema),
  /** How long the verification took (ms). */
  ms: z.number(),
});
export type AuditVerificationSummary = z.infer<typeof AuditVerificationSummarySchema>;

export const AuditSealSummarySchema = z.object({
  id: z.string(),
  sealedAt: instant,
  /** Rows the seal covers. */
  rows: z.number().int(),
});
export type AuditSealSummary = z.infer<typeof AuditSealSummarySchema>;

/** GET /rest/secure/audit_integrity. */
export const AuditIntegritySchema = z.object({
  lastVerification: AuditVerificationSummarySchema.nullable(),
  /** The workflow `audit-verify` is running. */
  running: z.boolean(),
  /** The newest run of `audit-verify` failed (or was ended) after the last verification was recorded. */
  lastRunFailed: z.boolean(),
  newestSeal: AuditSealSummarySchema.nullable(),
  /** Rows above the newest seal's newest id (not sealed yet). */
  awaitingSeal: z.number().int(),
  /** A seal was written within AUDIT_INTEGRITY_SEALING_WITHIN_MS: the sealer is at work. */
  sealing: z.boolean(),
});
export type AuditIntegrity = z.infer<typeof AuditIntegritySchema>;

/** POST /rest/secure/audit_integrity/verify (202). */
export const AuditVerifyStartedSchema = z.object({ running: z.literal(true) });
export type AuditVerifyStarted = z.infer<typeof AuditVerifyStartedSchema>;

/** How recent (ms) the newest seal must be for `sealing`: five of the default one-minute seal intervals. */
export const AUDIT_INTEGRITY_SEALING_WITHIN_MS = 5 * 60_000;

/** The screen's texts and the API's messages. */
export const AUDIT_INTEGRITY_TEXTS = {
  title: 'Audit Integrity',
  intro:
    'Every audit trail entry is sealed: signed and chained, so that a change behind the database’s back is found. A verification recomputes every seal from the entries it covers.',
  verifyNow: 'Verify now',
  verifying: 'Verifying…',
  intact: 'The audit trail is intact',
  notIntact: 'The audit trail was changed',
  never: 'The audit trail has not been verified yet. Verify it now to see whether it is intact.',
  noFindings: 'Nothing was found: every entry agrees with its seal.',
  noSeal: 'No seal has been written yet.',
  sealingOff: 'No seal was written in the last few minutes: the sealer may be off or behind.',
  runFailed: 'The last verification did not finish. Try again; if it fails again, the worker may be down.',
  loadFailed: 'Problem loading the audit trail’s integrity.',
  startFailed: 'The verification could not be started.',
  temporalUnavailable:
    'The workflow service is not answering: the verification was not started. Please try again in a few minutes.',
} as const;

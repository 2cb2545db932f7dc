/**
 * A verification of the audit trail is itself audited (docs/decisions.md "A tamper-evident audit trail"): one
 * `AUDIT_VERIFIED` row on entity `AuditTrail`, with what was verified and the first findings. The newest such
 * row is the 'last verification' an ADMIN sees.
 */
import type pg from 'pg';
import type { AuditVerification } from './verify';

export const AUDIT_VERIFIED_ACTION = 'AUDIT_VERIFIED';

/** Who verified: a person (the screen) or a command (`npm run audit:verify`, actor id null). */
export interface VerificationActor {
  userId: number | null;
  username: string;
}

/** Writes the verification's audit row on `client` (outside the verification's own read-only snapshot). */
export async function recordAuditVerification(
  client: pg.ClientBase,
  v: AuditVerification,
  actor: VerificationActor,
): Promise<void> {
  const after = {
    ok: v.ok,
    rows: v.rows,
    seals: v.seals,
    awaitingSeal: v.awaitingSeal,
    findingsTotal: v.findingsTotal,
    findings: v.findings.slice(0, 10),
    newestSeal: v.newestSeal,
    witnessed: v.witnessed,
    ms: v.ms,
  };
  await client.query(
    `INSERT INTO "AuditEvent" ("actorUserId", "actorUsername", "entityType", "entityId", "action", "after")
     VALUES ($1, $2, 'AuditTrail', 'seals', $3, $4::jsonb)`,
    [actor.userId, actor.username.slice(0, 64), AUDIT_VERIFIED_ACTION, JSON.stringify(after)],
  );
}

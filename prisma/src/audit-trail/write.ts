/**
 * Writing one row of the audit trail (docs/decisions.md "A tamper-evident audit trail": one canonical form,
 * one writer module): every single-row writer of api, worker and seed calls `recordAudit` inside the
 * transaction of the change it records, so the change and its row commit or roll back together. The
 * set-based writers (`INSERT … SELECT`: the review decisions, the filing, the review removals) stay set-based
 * for speed. Rows are never edited or deleted (a trigger refuses it); the sealer signs what was written.
 */
import type { Prisma } from '../../generated/client/client';

/** Who did it: a person, or the system (`userId` null, e.g. 'seed', 'system'). */
export interface AuditActor {
  userId: number | null;
  username: string;
}

export interface AuditEntry {
  entityType: string;
  entityId: string | number;
  action: string;
  /** What it was and became: JSON values (undefined and null store no value). */
  before?: unknown;
  after?: unknown;
  workflowId?: string | null;
  /** A key a retried write finds its row by (unique). */
  idempotencyKey?: string | null;
  /** SHA-256 (hex) of the save the key was written for. */
  idempotencyDigest?: string | null;
}

const json = (value: unknown): Prisma.InputJsonValue | undefined =>
  value === undefined || value === null ? undefined : (JSON.parse(JSON.stringify(value)) as Prisma.InputJsonValue);

/** Writes one audit row with `tx` (the transaction of the change it records). @returns its id and time. */
export async function recordAudit(
  tx: Pick<Prisma.TransactionClient, 'auditEvent'>,
  actor: AuditActor,
  entry: AuditEntry,
): Promise<{ id: bigint; at: Date }> {
  return tx.auditEvent.create({
    data: {
      actorUserId: actor.userId,
      actorUsername: actor.username,
      entityType: entry.entityType,
      entityId: String(entry.entityId),
      action: entry.action,
      before: json(entry.before),
      after: json(entry.after),
      workflowId: entry.workflowId ?? null,
      idempotencyKey: entry.idempotencyKey ?? null,
      idempotencyDigest: entry.idempotencyDigest ?? null,
    },
    select: { id: true, at: true },
  });
}

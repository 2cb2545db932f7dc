/**
 * Writing the audit trail (/app/audit-trail), shared by every feature that changes something:
 * `recordAudit` writes one row inside the caller's transaction, so a change and its audit row commit or roll
 * back together. Reading it is the audit feature's (features/audit). Nothing edits or deletes a row.
 */
import type { Prisma } from '@portal/db';

export interface AuditActor {
  userId: number;
  username: string;
}

export interface AuditEntry {
  entityType: string;
  entityId: string | number;
  action: string;
  before?: unknown;
  after?: unknown;
  workflowId?: string;
  idempotencyKey?: string;
}

const json = (value: unknown): Prisma.InputJsonValue | undefined =>
  value === undefined || value === null ? undefined : (JSON.parse(JSON.stringify(value)) as Prisma.InputJsonValue);

/** Writes one audit row with `tx` (the transaction of the change it records). */
export async function recordAudit(tx: Prisma.TransactionClient, actor: AuditActor, entry: AuditEntry): Promise<void> {
  await tx.auditEvent.create({
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
    },
  });
}

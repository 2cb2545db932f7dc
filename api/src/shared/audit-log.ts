/**
 * The audit trail (/app/audit-trail): `recordAudit` writes one row inside the caller's transaction, so a
 * change and its audit row commit or roll back together; `listAuditEvents` reads them server-paged,
 * filtered (actor, entity, date range) and sorted. Nothing edits or deletes a row.
 */
import type { AuditEvent, AuditQuery, Page } from '@portal/contract';
import type { Prisma, PrismaClient } from '@portal/db';
import { auditEventView } from './views';
import { pageWindow, toPage } from '../http/page';

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

const SORTS: Record<string, (d: Prisma.SortOrder) => Prisma.AuditEventOrderByWithRelationInput> = {
  at: (d) => ({ at: d }),
  actorUsername: (d) => ({ actorUsername: d }),
  entityType: (d) => ({ entityType: d }),
  entityId: (d) => ({ entityId: d }),
  action: (d) => ({ action: d }),
};

/** One page of audit rows matching `q`; newest first unless sorted otherwise. */
export async function listAuditEvents(
  prisma: PrismaClient,
  q: AuditQuery,
  temporal: { uiUrl: string | undefined; namespace: string },
): Promise<Page<AuditEvent>> {
  const contains = (v: string) => ({ contains: v, mode: 'insensitive' as const });
  const where: Prisma.AuditEventWhereInput = {
    AND: [
      q.actor ? { actorUsername: contains(q.actor) } : {},
      q.entityType ? { entityType: q.entityType } : {},
      q.entityId ? { entityId: q.entityId } : {},
      q.from || q.to
        ? { at: { ...(q.from ? { gte: new Date(q.from) } : {}), ...(q.to ? { lte: new Date(q.to) } : {}) } }
        : {},
      q.filter
        ? { OR: [{ action: contains(q.filter) }, { entityId: q.filter }, { workflowId: contains(q.filter) }] }
        : {},
    ],
  };
  const [field = 'at', dir = 'desc'] = (q.sort ?? 'at,desc').split(',');
  const orderBy = [SORTS[field]!(dir as Prisma.SortOrder), { id: dir as Prisma.SortOrder }];
  const [total, rows] = await Promise.all([
    prisma.auditEvent.count({ where }),
    prisma.auditEvent.findMany({ where, orderBy, ...pageWindow(q) }),
  ]);
  return toPage(
    rows.map((r) => auditEventView(r, temporal)),
    total,
    q,
    `${field},${dir}`,
  );
}

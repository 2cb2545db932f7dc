/**
 * Reading the audit trail (/app/audit-trail): rows server-paged, filtered (actor, entity, date range, free
 * text) and sorted. Rows are written by `recordAudit` (shared/audit-log.ts).
 */
import type { AuditEvent, AuditQuery, Page } from '@portal/contract';
import type { Prisma, PrismaClient } from '@portal/db';
import { pageWindow, toPage } from '../../http/page';
import { auditEventView } from './views';

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

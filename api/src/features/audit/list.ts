/**
 * Reading the audit trail (/app/audit-trail): rows server-paged, filtered (actor, entity, date range, free
 * text) and sorted. Rows are written by `recordAudit` (shared/audit-log.ts). A list that grows with the
 * network, so it is read with plain SQL and zod-parsed rows instead of Prisma's query compiler (issue 14);
 * the answers are those of the former Prisma query (filters, order, page window).
 */
import { z } from 'zod';
import type { AuditEvent, AuditQuery, Page } from '@portal/contract';
import { Prisma, type PrismaClient } from '@portal/db';
import { toPage } from '../../http/page';
import { auditEventView } from './views';
import { CountRowsSchema, containsPattern } from '../../shared/sql';

/** Sort fields (AUDIT_SORT_FIELDS of the contract) and their columns. */
const SORT_COLUMNS: Record<string, string> = {
  at: '"at"',
  actorUsername: '"actorUsername"',
  entityType: '"entityType"',
  entityId: '"entityId"',
  action: '"action"',
};

const json = z.custom<Prisma.JsonValue>(() => true);
const AuditRowSchema = z.object({
  id: z.bigint(),
  at: z.date(),
  actorUserId: z.number().int().nullable(),
  actorUsername: z.string(),
  entityType: z.string(),
  entityId: z.string(),
  action: z.string(),
  before: json.nullable(),
  after: json.nullable(),
  workflowId: z.string().nullable(),
  idempotencyKey: z.string().nullable(),
});

function whereClause(q: AuditQuery): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  if (q.actor) parts.push(Prisma.sql`"actorUsername" ILIKE ${containsPattern(q.actor)}`);
  if (q.entityType) parts.push(Prisma.sql`"entityType" = ${q.entityType}`);
  if (q.entityId) parts.push(Prisma.sql`"entityId" = ${q.entityId}`);
  if (q.from) parts.push(Prisma.sql`"at" >= ${new Date(q.from)}`);
  if (q.to) parts.push(Prisma.sql`"at" <= ${new Date(q.to)}`);
  if (q.filter) {
    const like = containsPattern(q.filter);
    parts.push(Prisma.sql`("action" ILIKE ${like} OR "entityId" = ${q.filter} OR "workflowId" ILIKE ${like})`);
  }
  return parts.length ? Prisma.sql`WHERE ${Prisma.join(parts, ' AND ')}` : Prisma.empty;
}

/**
 * One page of audit rows matching `q`; newest first unless sorted otherwise (then by id in the same
 * direction). The page and the count run side by side.
 * @throws ZodError when PostgreSQL answers rows of an unexpected shape (a schema drift, answered 500).
 */
export async function listAuditEvents(
  prisma: PrismaClient,
  q: AuditQuery,
  temporal: { uiUrl: string | undefined; namespace: string },
): Promise<Page<AuditEvent>> {
  const [field = 'at', dir = 'desc'] = (q.sort ?? 'at,desc').split(',');
  const direction = dir === 'asc' ? 'ASC' : 'DESC';
  const column = SORT_COLUMNS[field];
  if (!column) throw new Error(`unknown audit sort field ${field}`);
  const where = whereClause(q);
  const [count, rows] = await Promise.all([
    prisma.$queryRaw<unknown[]>(Prisma.sql`SELECT count(*)::int AS total FROM "AuditEvent" ${where}`),
    prisma.$queryRaw<unknown[]>(Prisma.sql`SELECT "id", "at", "actorUserId", "actorUsername", "entityType",
        "entityId", "action", "before", "after", "workflowId", "idempotencyKey"
      FROM "AuditEvent" ${where}
      ORDER BY ${Prisma.raw(`${column} ${direction}, "id" ${direction}`)}
      LIMIT ${q.size} OFFSET ${(q.page - 1) * q.size}`),
  ]);
  return toPage(
    z
      .array(AuditRowSchema)
      .parse(rows)
      .map((r) => auditEventView(r, temporal)),
    CountRowsSchema.parse(count)[0]!.total,
    q,
    `${field},${dir}`,
  );
}

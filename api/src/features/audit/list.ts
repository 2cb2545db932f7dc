/**
 * Reading the audit trail (/app/audit-trail): rows server-paged, filtered (actor, entity, date range, free
 * text) and sorted. Rows are written by `recordAudit` (shared/audit-log.ts). A list that grows with the
 * network, so it is read with plain SQL (list-sql.ts) and zod-parsed rows instead of Prisma's query compiler
 * (issue 14), flat at millions of rows (issue 24); the answers are those of the former Prisma query.
 */
import { z } from 'zod';
import type { AuditEvent, AuditQuery, Page } from '@portal/contract';
import type { Prisma, PrismaClient } from '@portal/db';
import { toPage } from '../../http/page';
import { auditEventView } from './views';
import { CountRowsSchema, pageAndCount } from '../../shared/sql';
import { countThenPage } from '../../shared/filtered-page';
import { auditEventsSql } from './list-sql';

const json = z.custom<Prisma.JsonValue>(() => true);
const AuditRowSchema = z.object({
  // bigint through Prisma, text through the pg pool (int8).
  id: z.coerce.bigint(),
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

/**
 * One page of audit rows matching `q`; newest first unless sorted otherwise (then by id in the same
 * direction). Unfiltered, the page and the kept count run side by side. Filtered, the count runs first: nothing
 * matching reads no page, and in time order a filter matching many rows walks the order's index a bounded way
 * (`walkLength`), since collecting and sorting every match would cost in proportion to the matches; a walk that
 * comes back short is followed by the collecting statement.
 * @throws ZodError when PostgreSQL answers rows of an unexpected shape (a schema drift, answered 500).
 */
export async function listAuditEvents(
  prisma: PrismaClient,
  q: AuditQuery,
  temporal: { uiUrl: string | undefined; namespace: string },
): Promise<Page<AuditEvent>> {
  const [field = 'at', dir = 'desc'] = (q.sort ?? 'at,desc').split(',');
  const build = (total?: number) => auditEventsSql(q, field, dir as 'asc' | 'desc', total);
  // A filter's best plan depends on its values (the trigram index or the order's index): planned each time.
  const opts = { prepare: false };
  const { total, rows } = build().filtered
    ? await countThenPage(prisma, build, opts)
    : await pageAndCount(prisma, build, q.page, opts).then((both) => ({
        total: CountRowsSchema.parse(both.count)[0]!.total,
        rows: both.rows,
      }));
  return toPage(
    z
      .array(AuditRowSchema)
      .parse(rows)
      .map((r) => auditEventView(r, temporal)),
    total,
    q,
    `${field},${dir}`,
  );
}

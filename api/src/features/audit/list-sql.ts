/**
 * The audit trail's statements (issue 24 Growth: flat at 5,000,000 rows): the page and the count of the rows
 * matching an AuditQuery, built as `Prisma.sql` fragments (values bound, sort columns from the whitelist).
 * Without any filter the total is the count kept by a trigger (rows are never edited or deleted); the page is
 * a deferred join (the page's ids from the (at, id) index, then their rows), read from the end past the middle
 * (shared/deep-page.ts). The free text is matched through the stored "searchText" (action and workflow id,
 * lower-cased, one trigram index) or equals the entity id (prisma/migrations/20261202000000_growth_read_models);
 * when it is the only filter, its total adds the counts kept per action to the few other matches
 * (`freeTextCountSql`).
 */
import type { AuditQuery } from '@portal/contract';
import { Prisma } from '@portal/db';
import { containsPattern } from '../../shared/sql';
import { type OrderKey, type PageWindow, deepPageWindow, limitOffset, orderByText } from '../../shared/deep-page';

/** Sort fields (AUDIT_SORT_FIELDS of the contract) and their columns of "AuditEvent" `e`. */
const SORT_COLUMNS: Record<string, string> = {
  at: 'e."at"',
  actorUsername: 'e."actorUsername"',
  entityType: 'e."entityType"',
  entityId: 'e."entityId"',
  action: 'e."action"',
};

function whereClause(q: AuditQuery): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  if (q.actor) parts.push(Prisma.sql`e."actorUsername" ILIKE ${containsPattern(q.actor)}`);
  if (q.entityType) parts.push(Prisma.sql`e."entityType" = ${q.entityType}`);
  if (q.entityId) parts.push(Prisma.sql`e."entityId" = ${q.entityId}`);
  if (q.from) parts.push(Prisma.sql`e."at" >= ${new Date(q.from)}`);
  if (q.to) parts.push(Prisma.sql`e."at" <= ${new Date(q.to)}`);
  if (q.filter) {
    const like = containsPattern(q.filter.toLowerCase());
    parts.push(Prisma.sql`(e."searchText" LIKE ${like} OR e."entityId" = ${q.filter})`);
  }
  return parts.length ? Prisma.sql`WHERE ${Prisma.join(parts, ' AND ')}` : Prisma.empty;
}

/** The statements of one audit page (`auditEventsSql`). */
export interface AuditPageSql {
  /** The page: its ids collected from the matching rows (or an index's order), then their rows. */
  rows: Prisma.Sql;
  /**
   * The count: one row `{ total }`, and `tableRows` (every audit row, from the kept counts) when filtered.
   */
  count: Prisma.Sql;
  /** Which rows of the order the page reads. */
  window: PageWindow;
  /** True when some filter is set: the count is counted and also answers `tableRows`. */
  filtered: boolean;
  /**
   * Filtered and in time order only: the page read by walking the newest (or oldest) `rows` rows of the (at, id)
   * index and keeping the matching ones; fewer rows than `window.limit` means the walk was too short.
   */
  walk?: (rows: number) => Prisma.Sql;
}

/**
 * The statements of one audit page, sorted by `field` `dir`, then by id in the same direction. `total`, when
 * known, lets a page past the middle be read from the end.
 * @throws Error on an unknown sort field.
 */
export function auditEventsSql(q: AuditQuery, field: string, dir: 'asc' | 'desc', total?: number): AuditPageSql {
  const column = SORT_COLUMNS[field];
  if (!column) throw new Error(`unknown audit sort field ${field}`);
  const keys: OrderKey[] = [
    { column, dir },
    { column: 'e."id"', dir },
  ];
  const where = whereClause(q);
  const window = deepPageWindow(q.page, q.size, total);
  const order = Prisma.raw(orderByText(keys, window.reversed));
  /** The page's rows, in the list's order, for the ids `keys` selects (aliased `k`). */
  const pageOf = (ids: Prisma.Sql) => Prisma.sql`SELECT e."id", e."at", e."actorUserId", e."actorUsername",
      e."entityType", e."entityId", e."action", e."before", e."after", e."workflowId", e."idempotencyKey"
    FROM (${ids}) k
    JOIN "AuditEvent" e ON e."id" = k."id"
    ORDER BY ${Prisma.raw(orderByText(keys))}`;
  const rows = pageOf(Prisma.sql`SELECT e."id" FROM "AuditEvent" e ${where} ORDER BY ${order} ${limitOffset(window)}`);
  if (where === Prisma.empty) {
    return {
      rows,
      window,
      filtered: false,
      count: Prisma.sql`SELECT coalesce(sum(c."n"), 0)::int AS total FROM "AuditEventCount" c`,
    };
  }
  const tableRows = Prisma.sql`(SELECT coalesce(sum(c."n"), 0) FROM "AuditEventCount" c)::int8 AS "tableRows"`;
  const count = onlyFreeText(q)
    ? Prisma.sql`SELECT (${freeTextCountSql(q.filter!)})::int AS total, ${tableRows}`
    : Prisma.sql`SELECT (SELECT count(*) FROM "AuditEvent" e ${where})::int AS total, ${tableRows}`;
  const walk =
    field === 'at'
      ? (walked: number) =>
          pageOf(Prisma.sql`SELECT e."id" FROM (SELECT * FROM "AuditEvent" e ORDER BY ${order} LIMIT ${walked}) e
            ${where} ORDER BY ${order} ${limitOffset(window)}`)
      : undefined;
  return { rows, count, window, filtered: true, walk };
}

/**
 * True when the free text is the query's one filter and holds no line break ("searchText" joins the action
 * and the workflow id with one, so a text without it matches "searchText" exactly when it matches either).
 */
function onlyFreeText(q: AuditQuery): boolean {
  return Boolean(q.filter) && !q.filter!.includes('\n') && !q.actor && !q.entityType && !q.entityId && !q.from && !q.to;
}

/**
 * The number of rows the free text alone matches, without counting the rows of the actions that contain it
 * one by one (prisma/migrations/20261209000000_audit_action_counts): the kept counts of those actions, plus the
 * rows whose workflow id contains it and whose action does not, plus the rows whose entity id is it and which
 * match neither. Each row is counted once: the three parts exclude one another.
 */
function freeTextCountSql(filter: string): Prisma.Sql {
  const like = containsPattern(filter.toLowerCase());
  return Prisma.sql`(SELECT coalesce(sum(c."n"), 0) FROM "AuditActionCount" c WHERE lower(c."action") LIKE ${like})
      + (SELECT count(*) FROM "AuditEvent" e
          WHERE lower(coalesce(e."workflowId", '')) LIKE ${like} AND lower(e."action") NOT LIKE ${like})
      + (SELECT count(*) FROM "AuditEvent" e WHERE e."entityId" = ${filter} AND e."searchText" NOT LIKE ${like})`;
}

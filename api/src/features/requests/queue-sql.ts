/**
 * The User Requests queue as SQL (issue 14 "Read paths at the speed of SQL", issue 24 Growth): the page and the
 * count of the one read model of every request kind (the "UserRequestQueue" table, kept by triggers on the
 * request tables: prisma/migrations/20261202000000_growth_read_models), built as `Prisma.sql` fragments (values
 * always bound, sort columns only from the whitelist below). The OR filter (000 §7) is a case-insensitive
 * "contains" over the text columns and the dates as displayed (the stored "searchText" and "sharedText", a
 * trigram index each), plus status and kind names; the order is the sort column, then newest first. Rows are
 * parsed with zod.
 *
 * Flat at a million rows: an unfiltered total is the sum of the counts kept per kind and status, a filtered
 * one mostly the sum of the counts kept per shared text (countSql); a page is a
 * deferred join (the page's keys from a covering index, then their rows); a page past the middle is read from
 * the other end (shared/deep-page.ts). `tests/bench` runs the same statements on PostgreSQL directly and
 * `tests/integration/growth-explain.test.ts` checks their plans use indexes.
 */
import { z } from 'zod';
import {
  REQUEST_TYPES,
  USER_REQUEST_STATUSES,
  USER_REQUEST_TYPES,
  USER_REQUEST_TYPE_LABELS,
  type PageQuery,
  type UserRequestsStatus,
} from '@portal/contract';
import { Prisma } from '@portal/db';
import { CountRowsSchema, containsPattern } from '../../shared/sql';
import { type OrderKey, deepPageWindow, limitOffset, orderByText } from '../../shared/deep-page';
import type { WalkablePageSql } from '../../shared/filtered-page';
import { type RowJson, isoJson, rowSql, valueJson } from '../../shared/row-json';

/** The queue's sort fields (000 §7) and their columns of the read model `q` ("UserRequestQueue"). */
const SORT_COLUMNS: Record<string, string> = {
  dateSubmitted: 'q."sysdat"',
  lastModified: 'q."dchng"',
  lastModifiedBy: 'q."lastModifiedBy"',
  requestStatus: 'q."requestStatus"',
  requestType: 'q."requestType"',
  userRequestType: 'q."userRequestType"',
  sysaidTicket: 'q."sysaidTicket"',
  firstName: 'q."firstName"',
  lastName: 'q."lastName"',
  email: 'q."email"',
  organizationName: 'q."organizationName"',
};

/** Sort fields the queue accepts (anything else is answered 422 by the route). */
export const USER_REQUEST_SORT_FIELDS = Object.keys(SORT_COLUMNS);

/** One queue row as PostgreSQL returns it. */
export const QueueRowSchema = z.object({
  userRequestType: z.enum(USER_REQUEST_TYPES),
  id: z.number().int(),
  requestType: z.enum(REQUEST_TYPES).nullable(),
  requestStatus: z.enum(USER_REQUEST_STATUSES),
  sysdat: z.date(),
  sysaidTicket: z.string(),
  dchng: z.date(),
  lastModifiedBy: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  organizationName: z.string(),
});
export type QueueRow = z.infer<typeof QueueRowSchema>;

/**
 * The queue's wire row (UserRequestRowSchema: the route's mapping of QueueRowSchema, in its key order) as
 * PostgreSQL writes it for the load-all stream (000 §9; shared/stream-page.ts), over the page's columns.
 */
export const QUEUE_ROW_JSON: RowJson = {
  sql: rowSql([
    ['id', valueJson('t."id"')],
    ['userRequestType', valueJson('t."userRequestType"')],
    ['requestType', valueJson('t."requestType"')],
    ['requestStatus', valueJson('t."requestStatus"')],
    ['dateSubmitted', isoJson('t."sysdat"')],
    ['sysaidTicket', valueJson('t."sysaidTicket"')],
    ['lastModified', isoJson('t."dchng"')],
    ['lastModifiedBy', valueJson('t."lastModifiedBy"')],
    ['firstName', valueJson('t."firstName"')],
    ['lastName', valueJson('t."lastName"')],
    ['email', valueJson('t."email"')],
    ['organizationName', valueJson('t."organizationName"')],
  ]),
  finish: (row) => row,
};

/** The count statement's answer. */
export const QueueCountSchema = CountRowsSchema;

/** Names that match `filter` as a whole word list: 'in progress' finds IN_PROGRESS, 'registration' the kind. */
function matchingNames(filter: string, names: readonly string[], labels: Record<string, string> = {}): string[] {
  const upper = filter.toUpperCase().replace(/ /g, '_');
  return names.filter((n) => n.includes(upper) || (labels[n] ?? '').toUpperCase().includes(filter.toUpperCase()));
}

/** The view's own condition on `alias` (the queue `q` or its shared counts `c`): none, open rows, one status. */
function viewClause(status: UserRequestsStatus, alias: 'q' | 'c'): Prisma.Sql[] {
  if (status === 'all') return [];
  if (status === 'pending') return [Prisma.sql`NOT ${Prisma.raw(alias)}."resolved"`];
  return [Prisma.sql`${Prisma.raw(alias)}."requestStatus" = ${status}`];
}

/**
 * What the OR filter matches of a row (or of a group of the shared counts) `alias`, split in two: `shared`, the
 * organisation and last modifier ("sharedText") and the status and kind names; `own`, the rest of the row's
 * text ("searchText"). A row matches when either does.
 */
function filterParts(filter: string, alias: 'q' | 'c'): { shared: Prisma.Sql; own: Prisma.Sql } {
  const a = Prisma.raw(alias);
  const pattern = containsPattern(filter.toLowerCase());
  const statuses = matchingNames(filter, USER_REQUEST_STATUSES);
  const kinds = matchingNames(filter, USER_REQUEST_TYPES, USER_REQUEST_TYPE_LABELS);
  const shared: Prisma.Sql[] = [
    Prisma.sql`${a}."sharedText" LIKE ${pattern}`,
    ...(statuses.length ? [Prisma.sql`${a}."requestStatus" = ANY(${statuses})`] : []),
    ...(kinds.length ? [Prisma.sql`${a}."userRequestType" = ANY(${kinds})`] : []),
  ];
  return { shared: Prisma.sql`(${Prisma.join(shared, ' OR ')})`, own: Prisma.sql`${a}."searchText" LIKE ${pattern}` };
}

function whereClause(status: UserRequestsStatus, filter: string | undefined): Prisma.Sql {
  const parts = viewClause(status, 'q');
  if (filter) {
    const { shared, own } = filterParts(filter, 'q');
    parts.push(Prisma.sql`(${own} OR ${shared})`);
  }
  return parts.length ? Prisma.sql`WHERE ${Prisma.join(parts, ' AND ')}` : Prisma.empty;
}

/** The page's order: the sort column, then newest first (the date submitted, then the id). */
function orderKeys(field: string, dir: 'asc' | 'desc'): OrderKey[] {
  const column = SORT_COLUMNS[field];
  if (!column) throw new Error(`unknown queue sort field ${field}`);
  const first: OrderKey = { column, dir, nulls: 'last' };
  const newest: OrderKey[] = [
    { column: 'q."sysdat"', dir: 'desc', nulls: 'last' },
    { column: 'q."id"', dir: 'desc' },
  ];
  // Newest first is the default order itself: one key less, and the covering indexes serve it.
  return field === 'dateSubmitted' && dir === 'desc' ? newest : [first, ...newest];
}

/**
 * The total of one view: without a filter, the sum of the counts kept per kind and status; with one, the
 * counts kept per kind, status and shared text of the groups the filter matches, plus the rows of the other
 * groups whose own text matches (the trigram index of "searchText"; migration 20261210000000_queue_shared_counts).
 * The two parts exclude one another, so every matching row is counted once. Filtered, the count also answers
 * `outsideWalk` (the second part, which the page's walk cannot see) and `tableRows` (the view's size).
 */
function countSql(status: UserRequestsStatus, filter: string | undefined): Prisma.Sql {
  const view = viewClause(status, 'c');
  const kept = Prisma.sql`SELECT coalesce(sum(c."n"), 0)::int FROM "UserRequestQueueCount" c
    ${view.length ? Prisma.sql`WHERE ${Prisma.join(view, ' AND ')}` : Prisma.empty}`;
  if (!filter) return Prisma.sql`SELECT (${kept}) AS total`;
  const groups = filterParts(filter, 'c');
  const rows = filterParts(filter, 'q');
  const where = (alias: 'q' | 'c', ...more: Prisma.Sql[]) =>
    Prisma.join([...viewClause(status, alias), ...more], ' AND ');
  return Prisma.sql`SELECT (s."n" + o."n")::int AS total, o."n"::int AS "outsideWalk", (${kept}) AS "tableRows"
    FROM (SELECT coalesce(sum(c."n"), 0) AS "n" FROM "UserRequestQueueSharedCount" c WHERE ${where('c', groups.shared)}) s,
      (SELECT count(*) AS "n" FROM "UserRequestQueue" q WHERE ${where('q', rows.own, Prisma.sql`NOT ${rows.shared}`)}) o`;
}

/** The statements of one queue page (shared/filtered-page.ts). */
export type QueuePageSql = WalkablePageSql;

/**
 * The statements of one queue page: `rows` (the page, sorted by `field` `dir`, then newest first) and `count`
 * (every matching row). `total`, when known, lets a page past the middle be read from the end. The rows are a
 * deferred join: the page's keys first (from a covering index for the default order), then their columns.
 * Filtered in the default order, also `walk`: the page's keys from the first rows of the view's index, tested
 * on the index alone for the filter's shared part (20261210200000_queue_walk_indexes), for a filter that
 * matches nothing else (the count's `outsideWalk` is 0). `field` must be one of USER_REQUEST_SORT_FIELDS (the
 * route's schema checks).
 * @throws Error on an unknown sort field.
 */
export function userRequestQueueSql(
  status: UserRequestsStatus,
  q: PageQuery,
  field: string,
  dir: 'asc' | 'desc',
  total?: number,
): QueuePageSql {
  const keys = orderKeys(field, dir);
  const window = deepPageWindow(q.page, q.size, total);
  const windowOrder = Prisma.raw(orderByText(keys, window.reversed));
  const page = (keysOf: Prisma.Sql) => Prisma.sql`SELECT q."userRequestType", q."id", q."requestType",
      q."requestStatus", q."sysdat", q."sysaidTicket", q."dchng", q."lastModifiedBy", q."firstName", q."lastName",
      q."email", q."organizationName"
    FROM (${keysOf}) k
    JOIN "UserRequestQueue" q ON q."userRequestType" = k."userRequestType" AND q."id" = k."id"
    ORDER BY ${Prisma.raw(orderByText(keys))}`;
  const rows = page(Prisma.sql`SELECT q."userRequestType", q."id" FROM "UserRequestQueue" q
    ${whereClause(status, q.filter)} ORDER BY ${windowOrder} ${limitOffset(window)}`);
  const view = viewClause(status, 'q');
  const filter = q.filter;
  const walk =
    filter && field === 'dateSubmitted' && dir === 'desc'
      ? (walked: number) =>
          page(Prisma.sql`SELECT q."userRequestType", q."id" FROM (
              SELECT q."userRequestType", q."id", q."sysdat", q."requestStatus", q."sharedText" FROM "UserRequestQueue" q
              ${view.length ? Prisma.sql`WHERE ${Prisma.join(view, ' AND ')}` : Prisma.empty}
              ORDER BY ${windowOrder} LIMIT ${walked}) q
            WHERE ${filterParts(filter, 'q').shared} ORDER BY ${windowOrder} ${limitOffset(window)}`)
      : undefined;
  return { rows, count: countSql(status, q.filter), window, walk };
}

/**
 * The User Requests queue as SQL (issue 14 "Read paths at the speed of SQL"): the page and the count of the
 * one read model of every request kind (the "UserRequestQueue" view of access-change requests and
 * registrations, prisma/migrations/20261124000000_user_request_queue), built as `Prisma.sql` fragments (values
 * always bound, sort columns only from the whitelist below). The OR filter (000 §7) is a case-insensitive
 * "contains" over the text columns and the dates as displayed, plus status and kind names; the order is the
 * sort column, then newest first. Rows are parsed with zod.
 *
 * `tests/bench` runs the same statements on PostgreSQL directly to compare with the API's answer time.
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

/** The count statement's answer. */
export const QueueCountSchema = CountRowsSchema;

/** How the screens show a date (web/src/shared/format.ts 'MM/DD/YYYY h:mm A'), in UTC, for the OR filter. */
const displayedDate = (column: string) => Prisma.raw(`to_char(${column}, 'MM/DD/YYYY FMHH12:MI AM')`);

/** Names that match `filter` as a whole word list: 'in progress' finds IN_PROGRESS, 'registration' the kind. */
function matchingNames(filter: string, names: readonly string[], labels: Record<string, string> = {}): string[] {
  const upper = filter.toUpperCase().replace(/ /g, '_');
  return names.filter((n) => n.includes(upper) || (labels[n] ?? '').toUpperCase().includes(filter.toUpperCase()));
}

function whereClause(status: UserRequestsStatus, filter: string | undefined): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  if (status === 'pending') parts.push(Prisma.sql`NOT q."resolved"`);
  else if (status !== 'all') parts.push(Prisma.sql`q."requestStatus" = ${status}`);
  if (filter) {
    const like = containsPattern(filter);
    const statuses = matchingNames(filter, USER_REQUEST_STATUSES);
    const kinds = matchingNames(filter, USER_REQUEST_TYPES, USER_REQUEST_TYPE_LABELS);
    const any: Prisma.Sql[] = [
      Prisma.sql`q."firstName" ILIKE ${like}`,
      Prisma.sql`q."lastName" ILIKE ${like}`,
      Prisma.sql`q."email" ILIKE ${like}`,
      Prisma.sql`q."organizationName" ILIKE ${like}`,
      Prisma.sql`q."sysaidTicket" ILIKE ${like}`,
      Prisma.sql`q."lastModifiedBy" ILIKE ${like}`,
      Prisma.sql`${displayedDate('q."sysdat"')} ILIKE ${like}`,
      Prisma.sql`${displayedDate('q."dchng"')} ILIKE ${like}`,
      ...(statuses.length ? [Prisma.sql`q."requestStatus" = ANY(${statuses})`] : []),
      ...(kinds.length ? [Prisma.sql`q."userRequestType" = ANY(${kinds})`] : []),
    ];
    parts.push(Prisma.sql`(${Prisma.join(any, ' OR ')})`);
  }
  return parts.length ? Prisma.sql`WHERE ${Prisma.join(parts, ' AND ')}` : Prisma.empty;
}

/**
 * The two statements of one queue page: `rows` (the page, sorted by `field` `dir`, then newest first) and
 * `count` (every matching row). `field` must be one of USER_REQUEST_SORT_FIELDS (the route's schema checks).
 * @throws Error on an unknown sort field.
 */
export function userRequestQueueSql(
  status: UserRequestsStatus,
  q: PageQuery,
  field: string,
  dir: 'asc' | 'desc',
): { rows: Prisma.Sql; count: Prisma.Sql } {
  const column = SORT_COLUMNS[field];
  if (!column) throw new Error(`unknown queue sort field ${field}`);
  const from = Prisma.sql`FROM "UserRequestQueue" q ${whereClause(status, q.filter)}`;
  const rows = Prisma.sql`SELECT q."userRequestType", q."id", q."requestType", q."requestStatus", q."sysdat",
      q."sysaidTicket", q."dchng", q."lastModifiedBy", q."firstName", q."lastName", q."email", q."organizationName"
    ${from}
    ORDER BY ${Prisma.raw(`${column} ${dir === 'asc' ? 'ASC' : 'DESC'} NULLS LAST`)}, q."sysdat" DESC, q."id" DESC
    LIMIT ${q.size} OFFSET ${(q.page - 1) * q.size}`;
  return { rows, count: Prisma.sql`SELECT count(*)::int AS total ${from}` };
}

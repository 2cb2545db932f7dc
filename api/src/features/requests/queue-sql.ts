/**
 * The User Requests queue as SQL (issue 14 "Read paths at the speed of SQL"): the page and the count of the
 * projection's access-modification requests joined with their subject, built as `Prisma.sql` fragments
 * (values always bound, sort columns only from the whitelist below). The answers are those of the former
 * Prisma query: same filter (case-insensitive "contains" over the text columns, status names), same order
 * (the sort column, then the id, newest first), same page window. Rows are parsed with zod.
 *
 * `tests/bench` runs the same statements on PostgreSQL directly to compare with the API's answer time.
 */
import { z } from 'zod';
import {
  REQUEST_STATUSES,
  REQUEST_TYPES,
  RESOLVED_STATUSES,
  type PageQuery,
  type RequestStatus,
} from '@portal/contract';
import { Prisma } from '@portal/db';

/** The queue's sort fields (000 §7) and their columns (`r` the request, `u` its subject). */
const SORT_COLUMNS: Record<string, string> = {
  dateSubmitted: 'r."sysdat"',
  lastModified: 'r."dchng"',
  lastModifiedBy: 'r."lastModifiedBy"',
  requestStatus: 'r."requestStatus"',
  requestType: 'r."requestType"',
  userRequestType: 'r."requestType"',
  sysaidTicket: 'r."sysaidTicket"',
  firstName: 'u."firstName"',
  lastName: 'u."lastName"',
  email: 'u."email"',
  organizationName: 'u."organizationName"',
};

/** Sort fields the queue accepts (anything else is answered 422 by the route). */
export const USER_REQUEST_SORT_FIELDS = Object.keys(SORT_COLUMNS);

/** One queue row as PostgreSQL returns it. */
export const QueueRowSchema = z.object({
  id: z.number().int(),
  requestType: z.enum(REQUEST_TYPES),
  requestStatus: z.enum(REQUEST_STATUSES),
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

export const QueueCountSchema = z.array(z.object({ total: z.number().int() })).length(1);

/** `%text%` for ILIKE with the text's own `%`, `_` and `\` matched literally. */
const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function whereClause(status: 'pending' | 'all' | RequestStatus, filter: string | undefined): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  if (status === 'pending') parts.push(Prisma.sql`r."requestStatus"::text <> ALL(${[...RESOLVED_STATUSES]})`);
  else if (status !== 'all') parts.push(Prisma.sql`r."requestStatus"::text = ${status}`);
  if (filter) {
    const like = containsPattern(filter);
    const upper = filter.toUpperCase().replace(/ /g, '_');
    const statuses = REQUEST_STATUSES.filter((s) => s.includes(upper));
    const any: Prisma.Sql[] = [
      Prisma.sql`u."firstName" ILIKE ${like}`,
      Prisma.sql`u."lastName" ILIKE ${like}`,
      Prisma.sql`u."email" ILIKE ${like}`,
      Prisma.sql`u."organizationName" ILIKE ${like}`,
      Prisma.sql`r."sysaidTicket" ILIKE ${like}`,
      Prisma.sql`r."lastModifiedBy" ILIKE ${like}`,
      ...(statuses.length ? [Prisma.sql`r."requestStatus"::text = ANY(${statuses})`] : []),
    ];
    parts.push(Prisma.sql`(${Prisma.join(any, ' OR ')})`);
  }
  return parts.length ? Prisma.sql`WHERE ${Prisma.join(parts, ' AND ')}` : Prisma.empty;
}

/**
 * The two statements of one queue page: `rows` (the page, sorted by `field` `dir`, then id descending) and
 * `count` (every matching row). `field` must be one of USER_REQUEST_SORT_FIELDS (the route's schema checks).
 * @throws Error on an unknown sort field.
 */
export function userRequestQueueSql(
  status: 'pending' | 'all' | RequestStatus,
  q: PageQuery,
  field: string,
  dir: 'asc' | 'desc',
): { rows: Prisma.Sql; count: Prisma.Sql } {
  const column = SORT_COLUMNS[field];
  if (!column) throw new Error(`unknown queue sort field ${field}`);
  const where = whereClause(status, q.filter);
  const from = Prisma.sql`FROM "AccessModRequest" r JOIN "PortalUser" u ON u."id" = r."subjectUserId" ${where}`;
  const rows = Prisma.sql`SELECT r."id", r."requestType"::text AS "requestType",
      r."requestStatus"::text AS "requestStatus", r."sysdat", r."sysaidTicket", r."dchng", r."lastModifiedBy",
      u."firstName", u."lastName", u."email", u."organizationName"
    ${from}
    ORDER BY ${Prisma.raw(`${column} ${dir === 'asc' ? 'ASC' : 'DESC'}`)}, r."id" DESC
    LIMIT ${q.size} OFFSET ${(q.page - 1) * q.size}`;
  return { rows, count: Prisma.sql`SELECT count(*)::int AS total ${from}` };
}

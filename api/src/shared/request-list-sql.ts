/**
 * What the request kinds' lists written as SQL share (the access-modification and profile-change lists): the
 * order (newest first, then id), one page or the whole list (shared/stream-page.ts answerList), and the
 * lifecycle columns every request row has, parsed with zod.
 */
import { z } from 'zod';
import { REQUEST_STATUSES } from '@portal/contract';
import { Prisma } from '@portal/db';
import type { LoadAllSql } from './stream-page';

/** The order of every such list, as the answer's `sort` names it. */
export const REQUEST_LIST_SORT = 'sysdat,desc';

/**
 * The statements of one list of `table` (aliased `alias`): `columns` of the rows matching `where` (with `joins`
 * for the columns of other tables), newest first, and their count; with `page`, the rows of that page only.
 */
export function requestListSql(
  list: { table: string; alias: string; columns: Prisma.Sql; joins: Prisma.Sql; where: Prisma.Sql },
  page?: { page: number; size: number },
): LoadAllSql {
  const from = Prisma.raw(`"${list.table}" ${list.alias}`);
  const order = Prisma.raw(`${list.alias}."sysdat" DESC, ${list.alias}."id" DESC`);
  const window = page ? Prisma.sql`LIMIT ${page.size} OFFSET ${(page.page - 1) * page.size}` : Prisma.empty;
  return {
    rows: Prisma.sql`SELECT ${list.columns} FROM ${from} ${list.joins} WHERE ${list.where} ORDER BY ${order} ${window}`,
    count: Prisma.sql`SELECT count(*)::int AS total FROM ${from} WHERE ${list.where}`,
  };
}

/** The lifecycle columns of every request kind's row, as PostgreSQL answers them. */
export const RequestRowSchema = z.object({
  id: z.number().int(),
  workflowId: z.string(),
  requestStatus: z.enum(REQUEST_STATUSES),
  requesterComments: z.string(),
  reviewerComments: z.string(),
  sysaidTicket: z.string(),
  versionno: z.number().int(),
  inactive: z.boolean(),
  sysdat: z.date(),
  dchng: z.date(),
  lastModifiedBy: z.string(),
});

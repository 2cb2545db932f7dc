/**
 * A filtered page of a long list (issue 24 Growth: the audit trail, the Users list): counted first, then read
 * by walking the order's index a bounded way when the count says the filter keeps many rows, since collecting
 * and sorting every match costs in proportion to the matches (the planner cannot tell a term in 1 % of the rows
 * from one in 0.01 %: the trigram estimate is the same). A walk that comes back short (the matches lie
 * elsewhere in the order) is followed by the collecting statement, so the page is always right; nothing
 * matching reads no page.
 */
import { z } from 'zod';
import type { Prisma, PrismaClient } from '@portal/db';
import { type PageWindow, walkLength } from './deep-page';
import { queryRows } from './sql';

/** The statements of one filtered page, for a total known or not yet. */
export interface WalkablePageSql {
  /** The page, collecting every match. */
  rows: Prisma.Sql;
  /**
   * One row: `total` (the matches), `tableRows` (the rows the filter chooses from) and, when the walk tests
   * only part of the filter, `outsideWalk` (the matches it cannot see: the page is then collected unless 0).
   */
  count: Prisma.Sql;
  window: PageWindow;
  /** The page read from the first `rows` rows of the order's index; absent when no index serves the order. */
  walk?: (rows: number) => Prisma.Sql;
}

/** The count statement's answer (int8 through the pg pool: text). */
const WalkCountSchema = z
  .array(
    z.object({
      total: z.number().int(),
      tableRows: z.coerce.number().int(),
      outsideWalk: z.number().int().default(0),
    }),
  )
  .length(1);

/**
 * Counts, then reads the page: a walk of `walkLength` rows when it is short enough and sees every match, the
 * collecting statement otherwise or when the walk found too few rows. `build(total)` gives the statements,
 * `opts` as queryRows's.
 * @returns the total and the page's rows (unparsed). @throws ZodError on a count of another shape.
 */
export async function countThenPage(
  prisma: PrismaClient,
  build: (total?: number) => WalkablePageSql,
  opts: { prepare?: boolean } = {},
): Promise<{ total: number; rows: unknown[] }> {
  const counted = WalkCountSchema.parse(await queryRows(prisma, build().count, opts))[0]!;
  const sql = build(counted.total);
  let rows: unknown[] = [];
  if (sql.window.limit > 0) {
    const walked = sql.walk && !counted.outsideWalk && walkLength(sql.window, counted.total, counted.tableRows);
    if (walked) rows = await queryRows(prisma, sql.walk!(walked), opts);
    if (rows.length < sql.window.limit) rows = await queryRows(prisma, sql.rows, opts);
  }
  return { total: counted.total, rows };
}

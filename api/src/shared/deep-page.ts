/**
 * Deep pages of the long lists (issue 24 Growth: the queue, the Users list, the audit trail at a million rows).
 *
 * An OFFSET costs the rows it skips, so the last page of a million rows read in the list's order walks a
 * million index entries. Once the total is known, a page past the middle is read from the other end instead:
 * the order reversed, skipping only the rows after it, and put back in the list's order by the caller's outer
 * statement. The first and the last page then cost the same; the page in the middle costs most (half the rows).
 */
import { Prisma } from '@portal/db';

/** One key of a list's order: a column (or expression) of the statement, its direction and where nulls go. */
export interface OrderKey {
  column: string;
  dir: 'asc' | 'desc';
  /** Where nulls sort; PostgreSQL's default (last when ascending, first when descending) when absent. */
  nulls?: 'first' | 'last';
}

/** Which rows of the list's order one page reads: `limit` rows after `offset`, from the end when `reversed`. */
export interface PageWindow {
  offset: number;
  limit: number;
  reversed: boolean;
}

/**
 * The window of the 1-based `page` of `size` rows in a list of `total` rows (undefined: not known yet, read
 * from the start). A page past the end reads nothing.
 */
export function deepPageWindow(page: number, size: number, total?: number): PageWindow {
  const offset = (page - 1) * size;
  if (total === undefined || offset + size / 2 <= total / 2) return { offset, limit: size, reversed: false };
  const limit = Math.max(0, Math.min(size, total - offset));
  return { offset: Math.max(0, total - offset - limit), limit, reversed: true };
}

const flip = (k: OrderKey): OrderKey => ({
  column: k.column,
  dir: k.dir === 'asc' ? 'desc' : 'asc',
  nulls: (k.nulls ?? (k.dir === 'asc' ? 'last' : 'first')) === 'last' ? 'first' : 'last',
});

/** `ORDER BY` text of `keys` (reversed: every key flipped, nulls included), for Prisma.raw. */
export function orderByText(keys: readonly OrderKey[], reversed = false): string {
  return (reversed ? keys.map(flip) : keys)
    .map((k) => `${k.column} ${k.dir.toUpperCase()}${k.nulls ? ` NULLS ${k.nulls.toUpperCase()}` : ''}`)
    .join(', ');
}

/** `LIMIT … OFFSET …` of a window, values bound. */
export const limitOffset = (w: PageWindow): Prisma.Sql => Prisma.sql`LIMIT ${w.limit} OFFSET ${w.offset}`;

/** The most rows of a list's order `walkLength` lets a filtered page read before it gives up (about 10 ms). */
export const MAX_WALK = 20_000;

/**
 * How many rows of the list's order a filtered page should read from its index, filtering as it goes, instead
 * of collecting every match and sorting them: when the filter keeps `total` of `tableRows`, the window needs
 * about (offset + limit) × tableRows / total rows of the order, and four times that is read (matches are not
 * spread evenly). Null when that exceeds MAX_WALK or nothing matches: collecting the matches is then cheaper.
 * A walk that finds fewer rows than the window holds (the matches lie elsewhere in the order) must be followed
 * by the collecting statement; at most MAX_WALK rows were read in vain.
 */
export function walkLength(window: PageWindow, total: number, tableRows: number): number | null {
  if (total <= 0 || window.limit <= 0 || tableRows <= 0) return null;
  const rows = Math.ceil(((window.offset + window.limit) * tableRows * 4) / total);
  return rows <= MAX_WALK ? Math.min(rows, tableRows) : null;
}

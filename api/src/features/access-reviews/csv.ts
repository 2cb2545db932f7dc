/**
 * A campaign's decisions as CSV (issue 25 "downloads its decisions as CSV with the same library and shape habits
 * as the access-modification report"; GET .../access_reviews/{id}/decisions.csv): one row per review item in
 * person order, columns DECISION_COLUMNS; a byte-order mark and the header written by csv-stringify, the rows by
 * PostgreSQL (`COPY ... TO STDOUT`, shared/csv-copy.ts) with CRLF records, in batches of DECISIONS_BATCH items
 * between keys of the index (campaignId, lastName, firstName, portalUserId, id), so no statement holds a
 * snapshot or a connection for a whole slow download. Texts from users are defused for spreadsheets.
 */
import { z } from 'zod';
import { USER_SUPPORT_POOL } from '@portal/contract';
import { Prisma, type PrismaClient } from '@portal/db';
import { batchedCsv, iso, labelled, safe } from '../../shared/csv-copy';
import { queryRows } from '../../shared/sql';

export const DECISION_COLUMNS = [
  'Person',
  'Username',
  'Email',
  'Study Role',
  'Sites',
  'LAOs',
  'Studies',
  'Systems',
  'End Date',
  'Pool',
  'Decision',
  'Defaulted',
  'Comment',
  'Decided By',
  'Decided At',
  'Outcome',
] as const;

/** Items copied per statement. */
export const DECISIONS_BATCH = 10_000;

/** The file name of campaign `id`'s decisions. */
export const decisionsFileName = (id: number): string => `access-review-${id}-decisions.csv`;

/** An item's key in the file's order (the index's). */
export interface DecisionKey {
  lastName: string;
  firstName: string;
  portalUserId: number;
  id: number;
}

const KEY = Prisma.sql`(i."lastName", i."firstName", i."portalUserId", i."id")`;
const keyOf = (k: DecisionKey) =>
  Prisma.sql`(${k.lastName}::text, ${k.firstName}::text, ${k.portalUserId}::int, ${k.id}::int)`;

function decisionsWhere(campaignId: number, after?: DecisionKey, upTo?: DecisionKey): Prisma.Sql {
  const parts = [Prisma.sql`i."campaignId" = ${campaignId}::int`];
  if (after) parts.push(Prisma.sql`${KEY} > ${keyOf(after)}`);
  if (upTo) parts.push(Prisma.sql`${KEY} <= ${keyOf(upTo)}`);
  return Prisma.join(parts, ' AND ');
}

// The keys compare as the index does: the column collation, so the batches meet exactly.
const ORDER = Prisma.sql`i."lastName", i."firstName", i."portalUserId", i."id"`;

/** The key of the last item of the batch after `after` (no row: fewer than `limit` remain). */
export const decisionsBoundarySql = (campaignId: number, after?: DecisionKey, limit = DECISIONS_BATCH): Prisma.Sql =>
  Prisma.sql`SELECT i."lastName", i."firstName", i."portalUserId", i."id" FROM "AccessReviewItem" i
    WHERE ${decisionsWhere(campaignId, after)} ORDER BY ${ORDER} OFFSET ${limit - 1}::int LIMIT 1`;

const BoundaryRowsSchema = z
  .array(
    z.object({ lastName: z.string(), firstName: z.string(), portalUserId: z.number().int(), id: z.number().int() }),
  )
  .max(1);

const list = (e: string) => safe(`array_to_string(${e}, '; ')`);

/** The cells of DECISION_COLUMNS, in order, as SQL over item i. */
const CELLS = [
  safe(`i."firstName" || ' ' || i."lastName"`),
  safe('i."username"'),
  safe('i."email"'),
  safe('i."roleName"'),
  list('i."siteCodes"'),
  list('i."laoIds"'),
  list('i."studyNames"'),
  `COALESCE((SELECT string_agg(${safe('a."systemName"')}, '; ' ORDER BY x.n) FROM unnest(i."systemAccessIds")
     WITH ORDINALITY x(sid, n) JOIN "SystemAccess" a ON a."id" = x.sid), '')`,
  `COALESCE(to_char(i."accessEndDate", 'YYYY-MM-DD'), '')`,
  `(CASE WHEN cardinality(i."reviewLaoIds") > 0 THEN array_to_string(i."reviewLaoIds", '; ') ELSE '${USER_SUPPORT_POOL}' END)`,
  `COALESCE(${labelled('i."decision"::text', { KEEP: 'Keep', REMOVE: 'Remove' })}, '')`,
  `(CASE WHEN i."defaulted" THEN 'Yes' ELSE 'No' END)`,
  `COALESCE(${safe('i."comment"')}, '')`,
  `COALESCE(${safe('i."decidedByUsername"')}, '')`,
  `COALESCE(${iso('i."decidedAt"')}, '')`,
  `COALESCE(${labelled('i."outcome"::text', { KEPT: 'Kept', REMOVED: 'Removed', CHANGED: 'Changed' })}, '')`,
];

/** The campaign's rows after `after` up to `upTo` (all remaining without it), as text cells, in person order. */
export const decisionsRowsSql = (campaignId: number, after?: DecisionKey, upTo?: DecisionKey): Prisma.Sql =>
  Prisma.sql`SELECT ${Prisma.raw(CELLS.join(',\n      '))}
    FROM "AccessReviewItem" i WHERE ${decisionsWhere(campaignId, after, upTo)} ORDER BY ${ORDER}`;

/**
 * Campaign `campaignId`'s decisions as CSV, streamed (module note).
 * @throws Error when `prisma` has no pg pool (attachSqlPool).
 */
export const campaignDecisionsCsv = (prisma: PrismaClient, campaignId: number): AsyncGenerator<Buffer | string> =>
  batchedCsv<DecisionKey>(prisma, {
    columns: DECISION_COLUMNS,
    boundary: async (after) =>
      BoundaryRowsSchema.parse(await queryRows(prisma, decisionsBoundarySql(campaignId, after), { prepare: false }))[0],
    rows: (after, upTo) => decisionsRowsSql(campaignId, after, upTo),
  });

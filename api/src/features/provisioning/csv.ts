/**
 * Every difference of a reconciliation run as CSV (issue 41 "the first 1,000 differences, CSV for all"; GET
 * .../provisioning/reconciliations/{runId}/differences.csv), with the portal's CSV habits (shared/csv-copy.ts):
 * a byte-order mark and the header (PROVISIONING_DIFFERENCE_COLUMNS) by csv-stringify, the rows by PostgreSQL
 * (`COPY ... TO STDOUT`) with CRLF records, in batches of DIFFERENCES_BATCH between ids of the index
 * (reconciliationId, id), so a run of 100,000 differences never sits in the API's memory nor holds one
 * statement for a whole slow download. Every text cell is defused for spreadsheets: the target's values (a
 * userName, an email in a detail) come from outside the portal.
 */
import { z } from 'zod';
import { PROVISIONING_DIFFERENCE_COLUMNS } from '@portal/contract';
import { Prisma, type PrismaClient } from '@portal/db';
import { batchedCsv, safe } from '../../shared/csv-copy';
import { queryRows } from '../../shared/sql';

/** Differences copied per statement. */
export const DIFFERENCES_BATCH = 10_000;

/** The file name of run `runId`'s differences. */
export const differencesFileName = (runId: number): string => `reconciliation-${runId}-differences.csv`;

// The ids are bigint: carried as text (COPY takes its values written in, shared/csv-copy.ts `inlined`).
function differencesWhere(runId: number, after?: string, upTo?: string): Prisma.Sql {
  const parts = [Prisma.sql`d."reconciliationId" = ${runId}::int4`];
  if (after) parts.push(Prisma.sql`d."id" > ${after}::int8`);
  if (upTo) parts.push(Prisma.sql`d."id" <= ${upTo}::int8`);
  return Prisma.join(parts, ' AND ');
}

const BoundarySchema = z.array(z.object({ id: z.string() })).max(1);

/** The cells of PROVISIONING_DIFFERENCE_COLUMNS, in order, as SQL over difference d (NULL: an empty cell). */
const CELLS = [
  'd."kind"',
  safe('d."externalId"'),
  safe('d."userName"'),
  safe('d."targetId"'),
  'd."portalUserId"::text',
  safe('d."detail"'),
];

/** Run `runId`'s differences after `after` up to `upTo` (all remaining without it), as text cells, by id. */
export const differencesRowsSql = (runId: number, after?: string, upTo?: string): Prisma.Sql =>
  Prisma.sql`SELECT ${Prisma.raw(CELLS.join(', '))} FROM "ProvisioningDifference" d
    WHERE ${differencesWhere(runId, after, upTo)} ORDER BY d."id"`;

/**
 * Run `runId`'s differences as CSV, streamed (module note); the caller checked the run exists.
 * @throws Error when `prisma` has no pg pool (attachSqlPool).
 */
export const differencesCsv = (prisma: PrismaClient, runId: number): AsyncGenerator<Buffer | string> =>
  batchedCsv<string>(prisma, {
    columns: PROVISIONING_DIFFERENCE_COLUMNS,
    boundary: async (after) => {
      const rows = await queryRows(
        prisma,
        Prisma.sql`SELECT d."id"::text AS "id" FROM "ProvisioningDifference" d WHERE ${differencesWhere(runId, after)}
          ORDER BY d."id" OFFSET ${DIFFERENCES_BATCH - 1}::int LIMIT 1`,
        { prepare: false },
      );
      return BoundarySchema.parse(rows)[0]?.id;
    },
    rows: (after, upTo) => differencesRowsSql(runId, after, upTo),
  });

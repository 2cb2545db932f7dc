/**
 * The access-modification report (001 §2.11, §7 GET /rest/secure/user_access_mod_request/report): one CSV row
 * per request, columns ACCESS_REPORT_COLUMNS (contract/src/kinds/access-change.ts). startDate/endDate bound the
 * date submitted (whole UTC days, inclusive); proxyRequests 'true' keeps proxy-filed requests only, 'false'
 * self-filed only, absent all. Oldest first, like a ledger.
 *
 * PostgreSQL writes the CSV (`COPY (...) TO STDOUT (FORMAT csv)`, read with pg-copy-streams) and the API passes
 * its bytes on (issue 24 Growth: over a million requests the API's memory grew by 250 MB while it built each
 * cell itself, as V8 kept the garbage of the text it made; here only buffers pass through). A report is
 * copied in batches of REPORT_BATCH requests between keys (sysdat, id) found first on the index
 * "AccessModRequest_sysdat_id_idx", so no statement holds a snapshot, or a connection, for a whole slow download.
 */
import { z } from 'zod';
import {
  ACCESS_REPORT_COLUMNS,
  REQUEST_STATUS_LABELS,
  REQUEST_TYPE_LABELS,
  type AccessReportQuery,
} from '@portal/contract';
import { Prisma, type PrismaClient, requestSignatureViews } from '@portal/db';
import { stringify } from 'csv-stringify/sync';
import { batchedCsv, iso, labelled, safe } from '../../shared/csv-copy';
import { queryRows } from '../../shared/sql';

export { crlfRecords } from '../../shared/csv-copy';

const DAY_MS = 86_400_000;

/** Requests copied per statement while streaming: a few megabytes of CSV at a time. */
export const REPORT_BATCH = 10_000;

/** A request's key in the report's order. */
export interface ReportKey {
  sysdat: Date;
  id: number;
}

/** The report's WHERE: the query's filters, and the keys after `after` up to and including `upTo`. */
function reportWhere(q: AccessReportQuery, after?: ReportKey, upTo?: ReportKey): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  if (q.startDate) parts.push(Prisma.sql`r."sysdat" >= ${new Date(`${q.startDate}T00:00:00.000Z`)}::timestamp`);
  if (q.endDate)
    parts.push(Prisma.sql`r."sysdat" < ${new Date(Date.parse(`${q.endDate}T00:00:00.000Z`) + DAY_MS)}::timestamp`);
  if (q.proxyRequests) parts.push(Prisma.sql`r."isProxyRequest" = ${q.proxyRequests === 'true'}::boolean`);
  if (after) parts.push(Prisma.sql`(r."sysdat", r."id") > (${after.sysdat}::timestamp, ${after.id}::int)`);
  if (upTo) parts.push(Prisma.sql`(r."sysdat", r."id") <= (${upTo.sysdat}::timestamp, ${upTo.id}::int)`);
  return parts.length ? Prisma.sql`WHERE ${Prisma.join(parts, ' AND ')}` : Prisma.empty;
}

/** The key of the last request of the batch after `after` (no row: fewer than `limit` remain). */
export function reportBoundarySql(q: AccessReportQuery, after?: ReportKey, limit = REPORT_BATCH): Prisma.Sql {
  return Prisma.sql`SELECT r."sysdat", r."id" FROM "AccessModRequest" r ${reportWhere(q, after)}
    ORDER BY r."sysdat", r."id" OFFSET ${limit - 1}::int LIMIT 1`;
}

const BoundaryRowsSchema = z.array(z.object({ sysdat: z.date(), id: z.number().int() })).max(1);

/** One entry per role block, in block order, joined with ' | '; `entry` is an expression over block `b`. */
const perBlock = (entry: string) =>
  `COALESCE((SELECT string_agg(${entry}, ' | ' ORDER BY b.n) FROM jsonb_array_elements(r."accessControls") WITH ORDINALITY b(v, n)), '')`;

/** A block's list `key` joined with '; ' ('---' for an empty list), each value mapped by `value` over `x.s`. */
const listOf = (key: string, value = safe('x.s')) =>
  `COALESCE((SELECT string_agg(${value}, '; ' ORDER BY x.n) FROM jsonb_array_elements_text(b.v->'${key}') WITH ORDINALITY x(s, n)), '---')`;

/** The cells of ACCESS_REPORT_COLUMNS, in order, as SQL over request r, subject s and requester p. */
const CELLS = [
  `r."id"::text`,
  iso('r."sysdat"'),
  labelled(`r."requestType"::text`, REQUEST_TYPE_LABELS),
  labelled(`r."requestStatus"::text`, REQUEST_STATUS_LABELS),
  `r."subjectUserId"::text`,
  safe(`s."firstName" || ' ' || s."lastName"`),
  safe('s."email"'),
  `(CASE WHEN r."isProxyRequest" THEN ${safe(`p."firstName" || ' ' || p."lastName"`)} ELSE 'Self' END)`,
  `(CASE WHEN r."isProxyRequest" THEN r."requesterUserId"::text ELSE '' END)`,
  `(CASE WHEN r."isProxyRequest" THEN ${safe('p."email"')} ELSE '' END)`,
  perBlock(safe(`b.v->>'roleName'`)),
  perBlock(listOf('laoIds')),
  perBlock(listOf('siteCodes')),
  perBlock(listOf('studyNames')),
  perBlock(
    listOf(
      'systemAccessIds',
      `COALESCE((SELECT a."systemName" FROM "SystemAccess" a WHERE a."id" = x.s::int), '#' || x.s)`,
    ),
  ),
  safe('r."requesterComments"'),
  safe('r."reviewerComments"'),
  safe('r."sysaidTicket"'),
  iso('r."dchng"'),
  safe('r."lastModifiedBy"'),
];

/**
 * The report's rows after `after` up to `upTo` (all remaining without it), as text cells `c0`… in order, oldest
 * first; `withKeys` adds each request's `id` and `versionno` first (for its signatures; not in the COPY's file).
 */
export function reportRowsSql(q: AccessReportQuery, after?: ReportKey, upTo?: ReportKey, withKeys = false): Prisma.Sql {
  const cells = CELLS.map((c, i) => `${c} AS c${i}`);
  const keys = withKeys ? [`r."id" AS "id"`, `r."versionno" AS "versionno"`] : [];
  return Prisma.sql`SELECT ${Prisma.raw([...keys, ...cells].join(',\n      '))}
    FROM "AccessModRequest" r
    JOIN "PortalUser" s ON s."id" = r."subjectUserId"
    JOIN "PortalUser" p ON p."id" = r."requesterUserId"
    ${reportWhere(q, after, upTo)}
    ORDER BY r."sysdat", r."id"`;
}

/** The columns a report gains when signatures are on (docs/decisions.md "Electronic signatures"), at the end. */
export const SIGNATURE_REPORT_COLUMNS = ['Signed By', 'Signed At', 'Meaning', 'Signature Valid'] as const;

/** A text stored from users, defused for spreadsheets as `safe` does in SQL. */
const safeText = (s: string) => (/^[=+\-@\t\r]/.test(s) ? `'${s}` : s);

const SignedBatchRowsSchema = z.array(z.looseObject({ id: z.number().int(), versionno: z.number().int() }));

/**
 * One batch of the report with its signature columns, as CSV records: the spec's cells as PostgreSQL makes
 * them, then per request its signatures (oldest first, joined with ' | ' like the role blocks): the signer's
 * printed name, the time (ISO 8601 UTC, as the report's other dates), the meaning, and Yes/No for whether it
 * still matches its record (`requestSignatureViews`: one query for the batch's signatures).
 */
async function signedBatch(prisma: PrismaClient, q: AccessReportQuery, after?: ReportKey, upTo?: ReportKey) {
  const rows = SignedBatchRowsSchema.parse(await queryRows(prisma, reportRowsSql(q, after, upTo, true)));
  if (rows.length === 0) return '';
  const signed = await requestSignatureViews(prisma, 'AccessModRequest', rows);
  const records = rows.map((r) => {
    const sigs = signed.get(r.id) ?? [];
    const join = (f: (s: (typeof sigs)[number]) => string) => sigs.map(f).join(' | ');
    return [
      ...CELLS.map((_, i) => (r[`c${i}`] ?? '') as string),
      join((s) => safeText(s.signerName)),
      join((s) => s.signedAt),
      join((s) => safeText(s.meaning)),
      join((s) => (s.valid ? 'Yes' : 'No')),
    ];
  });
  return stringify(records, { record_delimiter: 'windows' });
}

/**
 * The report as CSV, streamed (shared/csv-copy.ts `batchedCsv`): the header row, then REPORT_BATCH requests per
 * COPY; with `signatures` (SIGNATURES=on) the SIGNATURE_REPORT_COLUMNS at the end, each batch written by the
 * API (`signedBatch`). @throws Error when `prisma` has no pg pool (attachSqlPool).
 */
export const accessReportCsv = (
  prisma: PrismaClient,
  q: AccessReportQuery,
  signatures = false,
): AsyncGenerator<Buffer | string> =>
  batchedCsv<ReportKey>(prisma, {
    columns: signatures ? [...ACCESS_REPORT_COLUMNS, ...SIGNATURE_REPORT_COLUMNS] : ACCESS_REPORT_COLUMNS,
    boundary: async (after) => BoundaryRowsSchema.parse(await queryRows(prisma, reportBoundarySql(q, after)))[0],
    rows: (after, upTo) => reportRowsSql(q, after, upTo),
    ...(signatures ? { batch: (after, upTo) => signedBatch(prisma, q, after, upTo) } : {}),
  });

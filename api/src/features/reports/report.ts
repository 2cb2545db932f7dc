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
import type { Readable } from 'node:stream';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { stringify } from 'csv-stringify/sync';
import { z } from 'zod';
import {
  ACCESS_REPORT_COLUMNS,
  REQUEST_STATUS_LABELS,
  REQUEST_TYPE_LABELS,
  type AccessReportQuery,
} from '@portal/contract';
import { Prisma, type PrismaClient } from '@portal/db';
import { queryRows, sqlPoolOf } from '../../shared/sql';

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

/**
 * A text the report stores from users, defused for spreadsheets (OWASP CSV injection): a value starting with
 * =, +, -, @, tab or carriage return gets an apostrophe first. Not applied to the report's own markers.
 */
const safe = (e: string) =>
  `(CASE WHEN left((${e}), 1) IN ('=', '+', '-', '@', E'\\t', E'\\r') THEN '''' || (${e}) ELSE (${e}) END)`;

/** `labels` as a CASE over `e` (the contract's labels, written into the statement as literals). */
const labelled = (e: string, labels: Record<string, string>) =>
  `(CASE ${e} ${Object.entries(labels)
    .map(([k, v]) => `WHEN ${pg.escapeLiteral(k)} THEN ${pg.escapeLiteral(v)}`)
    .join(' ')} END)`;

/** One entry per role block, in block order, joined with ' | '; `entry` is an expression over block `b`. */
const perBlock = (entry: string) =>
  `COALESCE((SELECT string_agg(${entry}, ' | ' ORDER BY b.n) FROM jsonb_array_elements(r."accessControls") WITH ORDINALITY b(v, n)), '')`;

/** A block's list `key` joined with '; ' ('---' for an empty list), each value mapped by `value` over `x.s`. */
const listOf = (key: string, value = safe('x.s')) =>
  `COALESCE((SELECT string_agg(${value}, '; ' ORDER BY x.n) FROM jsonb_array_elements_text(b.v->'${key}') WITH ORDINALITY x(s, n)), '---')`;

const iso = (e: string) => `to_char(${e}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

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

/** The report's rows after `after` up to `upTo` (all remaining without it), as text cells, oldest first. */
export function reportRowsSql(q: AccessReportQuery, after?: ReportKey, upTo?: ReportKey): Prisma.Sql {
  return Prisma.sql`SELECT ${Prisma.raw(CELLS.join(',\n      '))}
    FROM "AccessModRequest" r
    JOIN "PortalUser" s ON s."id" = r."subjectUserId"
    JOIN "PortalUser" p ON p."id" = r."requesterUserId"
    ${reportWhere(q, after, upTo)}
    ORDER BY r."sysdat", r."id"`;
}

/**
 * `sql` with its values written in as literals, for COPY (which takes no parameters). Only the values the
 * report's builders bind (dates, whole numbers, booleans), each already cast in the text.
 */
function inlined(sql: Prisma.Sql): string {
  return sql.text.replace(/\$(\d+)/g, (_, n: string) => {
    const v = sql.values[Number(n) - 1];
    if (v instanceof Date) return pg.escapeLiteral(v.toISOString());
    if (typeof v === 'number' || typeof v === 'boolean') return pg.escapeLiteral(String(v));
    throw new Error(`report: value of type ${typeof v} cannot be written into COPY`);
  });
}

const QUOTE = 0x22;
const LF = 0x0a;
const CRLF = Buffer.from('\r\n');

/**
 * Ends records with CRLF (RFC 4180, as the report always has: docs/decisions.md) where PostgreSQL's CSV ends them
 * with LF: each LF outside a quoted field gets a CR before it. `state.quoted` carries the quoting across
 * chunks (a doubled quote inside a field toggles it twice).
 */
export function crlfRecords(chunk: Buffer, state: { quoted: boolean }): Buffer {
  const parts: Buffer[] = [];
  let from = 0;
  for (let i = 0; i < chunk.length; i++) {
    const c = chunk[i]!;
    if (c === QUOTE) state.quoted = !state.quoted;
    else if (c === LF && !state.quoted) {
      parts.push(chunk.subarray(from, i), CRLF);
      from = i + 1;
    }
  }
  if (from === 0) return chunk;
  parts.push(chunk.subarray(from));
  return Buffer.concat(parts);
}

/** Copies `sql`'s rows as CSV on a connection of `pool`, yielding the bytes as PostgreSQL sends them. */
async function* copied(pool: pg.Pool, sql: Prisma.Sql): AsyncGenerator<Buffer> {
  const client = await pool.connect();
  let stream: Readable | undefined;
  let done = false;
  try {
    stream = client.query(copyTo(`COPY (${inlined(sql)}) TO STDOUT (FORMAT csv)`));
    const state = { quoted: false };
    for await (const chunk of stream) yield crlfRecords(chunk as Buffer, state);
    done = true;
  } finally {
    // A download abandoned midway leaves the COPY running: that connection is closed, not reused.
    if (!done) stream?.destroy();
    client.release(!done);
  }
}

/**
 * The report as CSV, streamed: a byte-order mark and the header row first (spreadsheet programs then read the
 * file as UTF-8, names with accents), then the rows, REPORT_BATCH requests per COPY, each begun once the
 * consumer has taken the previous one. @throws Error when `prisma` has no pg pool (attachSqlPool).
 */
export async function* accessReportCsv(prisma: PrismaClient, q: AccessReportQuery): AsyncGenerator<Buffer | string> {
  const pool = sqlPoolOf(prisma);
  if (!pool) throw new Error('report: the API’s pg pool is not attached');
  yield stringify([], { columns: [...ACCESS_REPORT_COLUMNS], header: true, bom: true, record_delimiter: 'windows' });
  let after: ReportKey | undefined;
  for (;;) {
    const [upTo] = BoundaryRowsSchema.parse(await queryRows(prisma, reportBoundarySql(q, after)));
    yield* copied(pool, reportRowsSql(q, after, upTo));
    if (!upTo) return;
    after = upTo;
  }
}

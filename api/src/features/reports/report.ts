/**
 * The access-modification report (001 §2.11, §7 GET /rest/secure/user_access_mod_request/report): one CSV row
 * per request, columns ACCESS_REPORT_COLUMNS (contract/src/kinds/access-change.ts), written with csv-stringify.
 * startDate/endDate bound the date submitted (whole UTC days, inclusive); proxyRequests 'true' keeps
 * proxy-filed requests only, 'false' self-filed only, absent all. Oldest first, like a ledger.
 */
import { stringify } from 'csv-stringify/sync';
import {
  ACCESS_REPORT_COLUMNS,
  AccessControlSchema,
  REQUEST_STATUS_LABELS,
  REQUEST_STATUSES,
  REQUEST_TYPES,
  REQUEST_TYPE_LABELS,
  type AccessReportQuery,
} from '@portal/contract';
import { z } from 'zod';
import { Prisma, type PrismaClient } from '@portal/db';
import { queryRows } from '../../shared/sql';

const DAY_MS = 86_400_000;

/** Rows read per statement while streaming: a few hundred kilobytes of CSV at a time. */
export const REPORT_BATCH = 1000;

/**
 * One batch of the report's rows as SQL: the requests filed within the days asked (whole UTC days, inclusive)
 * by whom asked, with their subject's and requester's names, oldest first, after the row `after` (a keyset on
 * (sysdat, id), served by the index "AccessModRequest_sysdat_id_idx": no batch skips rows it has read before).
 */
export function reportBatchSql(
  q: AccessReportQuery,
  after: { sysdat: Date; id: number } | undefined,
  limit = REPORT_BATCH,
): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  if (q.startDate) parts.push(Prisma.sql`r."sysdat" >= ${new Date(`${q.startDate}T00:00:00.000Z`)}`);
  if (q.endDate) parts.push(Prisma.sql`r."sysdat" < ${new Date(Date.parse(`${q.endDate}T00:00:00.000Z`) + DAY_MS)}`);
  if (q.proxyRequests) parts.push(Prisma.sql`r."isProxyRequest" = ${q.proxyRequests === 'true'}`);
  if (after) parts.push(Prisma.sql`(r."sysdat", r."id") > (${after.sysdat}::timestamp, ${after.id}::int)`);
  const where = parts.length ? Prisma.sql`WHERE ${Prisma.join(parts, ' AND ')}` : Prisma.empty;
  return Prisma.sql`SELECT r."id", r."sysdat", r."requestType", r."requestStatus", r."subjectUserId",
      r."requesterUserId", r."isProxyRequest", r."accessControls", r."requesterComments", r."reviewerComments",
      r."sysaidTicket", r."dchng", r."lastModifiedBy",
      s."firstName" AS "subjectFirstName", s."lastName" AS "subjectLastName", s."email" AS "subjectEmail",
      p."firstName" AS "requesterFirstName", p."lastName" AS "requesterLastName", p."email" AS "requesterEmail"
    FROM "AccessModRequest" r
    JOIN "PortalUser" s ON s."id" = r."subjectUserId"
    JOIN "PortalUser" p ON p."id" = r."requesterUserId"
    ${where}
    ORDER BY r."sysdat", r."id"
    LIMIT ${limit}`;
}

/** One batch row as PostgreSQL returns it. */
const ReportRowSchema = z.object({
  id: z.number().int(),
  sysdat: z.date(),
  requestType: z.enum(REQUEST_TYPES),
  requestStatus: z.enum(REQUEST_STATUSES),
  subjectUserId: z.number().int(),
  requesterUserId: z.number().int(),
  isProxyRequest: z.boolean(),
  accessControls: z.unknown(),
  requesterComments: z.string(),
  reviewerComments: z.string(),
  sysaidTicket: z.string(),
  dchng: z.date(),
  lastModifiedBy: z.string(),
  subjectFirstName: z.string(),
  subjectLastName: z.string(),
  subjectEmail: z.string(),
  requesterFirstName: z.string(),
  requesterLastName: z.string(),
  requesterEmail: z.string(),
});
type ReportRow = z.infer<typeof ReportRowSchema>;

/**
 * A value a spreadsheet would run as a formula (=, +, -, @, tab, carriage return first) is prefixed with an
 * apostrophe (OWASP CSV injection): comments, names and codes come from users. Applied to stored text only,
 * not to the report's own markers ('---', ' | ').
 */
export function safeCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** A request's role blocks; built once (building a zod schema per row cost more than parsing with it). */
const AccessControlsSchema = AccessControlSchema.array();

/** One request's CSV cells, in ACCESS_REPORT_COLUMNS order. */
function reportCells(r: ReportRow, systemName: Map<number, string>): string[] {
  const blocks = AccessControlsSchema.parse(r.accessControls);
  // One entry per block, in block order, so the five access columns line up; '---' for an empty list.
  const per = (pick: (b: (typeof blocks)[number]) => readonly string[]) =>
    blocks.map((b) => (pick(b).length ? pick(b).map(safeCell).join('; ') : '---')).join(' | ');
  return [
    String(r.id),
    r.sysdat.toISOString(),
    REQUEST_TYPE_LABELS[r.requestType],
    REQUEST_STATUS_LABELS[r.requestStatus],
    String(r.subjectUserId),
    safeCell(`${r.subjectFirstName} ${r.subjectLastName}`),
    safeCell(r.subjectEmail),
    r.isProxyRequest ? safeCell(`${r.requesterFirstName} ${r.requesterLastName}`) : 'Self',
    r.isProxyRequest ? String(r.requesterUserId) : '',
    r.isProxyRequest ? safeCell(r.requesterEmail) : '',
    blocks.map((b) => safeCell(b.roleName)).join(' | '),
    per((b) => b.laoIds),
    per((b) => b.siteCodes),
    per((b) => b.studyNames),
    per((b) => b.systemAccessIds.map((id) => systemName.get(id) ?? `#${id}`)),
    safeCell(r.requesterComments),
    safeCell(r.reviewerComments),
    safeCell(r.sysaidTicket),
    r.dchng.toISOString(),
    safeCell(r.lastModifiedBy),
  ];
}

/**
 * The report as CSV, streamed (issue 24 Growth: a million requests start arriving within a second and the
 * API holds one batch at a time): a byte-order mark and the header row first (spreadsheet programs then read
 * the file as UTF-8, names with accents), then the rows in batches of REPORT_BATCH (reportBatchSql), each read
 * once the consumer has taken the previous one, so no statement holds a snapshot for the whole run.
 */
export async function* accessReportCsv(prisma: PrismaClient, q: AccessReportQuery): AsyncGenerator<string> {
  const csv = { columns: [...ACCESS_REPORT_COLUMNS], record_delimiter: 'windows' as const };
  yield stringify([], { ...csv, header: true, bom: true });
  const systems = await prisma.systemAccess.findMany({ select: { id: true, systemName: true } });
  const systemName = new Map(systems.map((s) => [s.id, s.systemName]));
  let after: { sysdat: Date; id: number } | undefined;
  for (;;) {
    const rows = z.array(ReportRowSchema).parse(await queryRows(prisma, reportBatchSql(q, after)));
    if (rows.length)
      yield stringify(
        rows.map((r) => reportCells(r, systemName)),
        csv,
      );
    if (rows.length < REPORT_BATCH) return;
    const last = rows[rows.length - 1]!;
    after = { sysdat: last.sysdat, id: last.id };
  }
}

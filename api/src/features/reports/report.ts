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
  REQUEST_TYPE_LABELS,
  type AccessReportQuery,
} from '@portal/contract';
import type { Prisma, PrismaClient } from '@portal/db';

const DAY_MS = 86_400_000;

/** The rows' filter: the date submitted within the days given, and who filed. */
export function reportWhere(q: AccessReportQuery): Prisma.AccessModRequestWhereInput {
  const sysdat: Prisma.DateTimeFilter = {};
  if (q.startDate) sysdat.gte = new Date(`${q.startDate}T00:00:00.000Z`);
  if (q.endDate) sysdat.lt = new Date(Date.parse(`${q.endDate}T00:00:00.000Z`) + DAY_MS);
  return {
    ...(q.startDate || q.endDate ? { sysdat } : {}),
    ...(q.proxyRequests ? { isProxyRequest: q.proxyRequests === 'true' } : {}),
  };
}

/**
 * A value a spreadsheet would run as a formula (=, +, -, @, tab, carriage return first) is prefixed with an
 * apostrophe (OWASP CSV injection): comments, names and codes come from users. Applied to stored text only,
 * not to the report's own markers ('---', ' | ').
 */
export function safeCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** The report as CSV text (a header row, then one row per request). */
export async function accessReportCsv(prisma: PrismaClient, q: AccessReportQuery): Promise<string> {
  const [rows, systems] = await Promise.all([
    prisma.accessModRequest.findMany({
      where: reportWhere(q),
      orderBy: [{ sysdat: 'asc' }, { id: 'asc' }],
      include: { subject: true, requester: true },
    }),
    prisma.systemAccess.findMany({ select: { id: true, systemName: true } }),
  ]);
  const systemName = new Map(systems.map((s) => [s.id, s.systemName]));
  const records = rows.map((r) => {
    const blocks = AccessControlSchema.array().parse(r.accessControls);
    // One entry per block, in block order, so the five access columns line up; '---' for an empty list.
    const per = (pick: (b: (typeof blocks)[number]) => readonly string[]) =>
      blocks.map((b) => (pick(b).length ? pick(b).map(safeCell).join('; ') : '---')).join(' | ');
    const cells: string[] = [
      String(r.id),
      r.sysdat.toISOString(),
      REQUEST_TYPE_LABELS[r.requestType],
      REQUEST_STATUS_LABELS[r.requestStatus],
      String(r.subjectUserId),
      safeCell(`${r.subject.firstName} ${r.subject.lastName}`),
      safeCell(r.subject.email),
      r.isProxyRequest ? safeCell(`${r.requester.firstName} ${r.requester.lastName}`) : 'Self',
      r.isProxyRequest ? String(r.requesterUserId) : '',
      r.isProxyRequest ? safeCell(r.requester.email) : '',
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
    return cells;
  });
  // A byte-order mark so spreadsheet programs read the file as UTF-8 (names with accents).
  return stringify(records, {
    header: true,
    columns: [...ACCESS_REPORT_COLUMNS],
    bom: true,
    record_delimiter: 'windows',
  });
}

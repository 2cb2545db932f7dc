/**
 * The access-modification request lists as SQL (001 §7 GET /, /status/{status}, /user/{userId}): which
 * requests a list holds, their order (newest first, then id) and their columns with the subject's and the
 * requester's names, written once and read two ways: one page (LIMIT/OFFSET with the count beside it) or the
 * whole list through the load-all stream (shared/stream-page.ts answerList). Values are always bound; rows are
 * parsed with zod.
 */
import { z } from 'zod';
import { REQUEST_TYPES, type RequestStatus } from '@portal/contract';
import { Prisma } from '@portal/db';
import { RequestRowSchema, requestListSql } from '../../../shared/request-list-sql';
import type { LoadAllSql } from '../../../shared/stream-page';
import {
  type RowJson,
  accessControlsJson,
  isoJson,
  nextStatusesJson,
  parsedBlocks,
  rowSql,
  valueJson,
  workflowUrlJson,
} from '../../../shared/row-json';
import { type TemporalUi, workflowUrl } from '../../../shared/views';
import type { RequestRow } from './view';

/** Which requests one list holds. */
export type AccessModSelection = { subjectUserId: number } | { status: RequestStatus } | 'all';

function whereOf(sel: AccessModSelection): Prisma.Sql {
  if (sel === 'all') return Prisma.sql`TRUE`;
  if ('status' in sel) return Prisma.sql`a."requestStatus" = ${sel.status}::"RequestStatus"`;
  return Prisma.sql`a."subjectUserId" = ${sel.subjectUserId}`;
}

/** The request's columns the view reads (view.ts), and its parties' names. */
const COLUMNS = Prisma.raw(`a."id", a."workflowId", a."requestType", a."requestStatus", a."subjectUserId",
  a."requesterUserId", a."isProxyRequest", a."accessControls", a."existingUserAccessId", a."requesterComments",
  a."reviewerComments", a."sysaidTicket", a."versionno", a."inactive", a."sysdat", a."dchng", a."lastModifiedBy",
  a."workflowStartedAt", s."firstName" AS "subjectFirstName", s."lastName" AS "subjectLastName",
  s."email" AS "subjectEmail", r."firstName" AS "requesterFirstName", r."lastName" AS "requesterLastName"`);
const PARTIES = Prisma.sql`JOIN "PortalUser" s ON s."id" = a."subjectUserId" JOIN "PortalUser" r ON r."id" = a."requesterUserId"`;

/**
 * The statements of one list: every row in order (for the load-all stream), and the count; with `page`, the
 * rows of that page only.
 */
export const accessModListSql = (sel: AccessModSelection, page?: { page: number; size: number }): LoadAllSql =>
  requestListSql(
    { table: 'AccessModRequest', alias: 'a', columns: COLUMNS, joins: PARTIES, where: whereOf(sel) },
    page,
  );

const RowSchema = RequestRowSchema.extend({
  requestType: z.enum(REQUEST_TYPES),
  subjectUserId: z.number().int(),
  requesterUserId: z.number().int(),
  isProxyRequest: z.boolean(),
  // Checked by the view (AccessControlSchema).
  accessControls: z.custom<Prisma.JsonValue>(),
  existingUserAccessId: z.number().int().nullable(),
  workflowStartedAt: z.date().nullable(),
  subjectFirstName: z.string(),
  subjectLastName: z.string(),
  subjectEmail: z.string(),
  requesterFirstName: z.string(),
  requesterLastName: z.string(),
});

/**
 * PostgreSQL's rows of `accessModListSql` as the view's input.
 * @throws ZodError when a row has an unexpected shape (a schema drift, answered 500).
 */
export const parseAccessModRows = (rows: unknown[]): RequestRow[] =>
  z
    .array(RowSchema)
    .parse(rows)
    .map(({ subjectFirstName, subjectLastName, subjectEmail, requesterFirstName, requesterLastName, ...r }) => ({
      ...r,
      subject: { firstName: subjectFirstName, lastName: subjectLastName, email: subjectEmail },
      requester: { firstName: requesterFirstName, lastName: requesterLastName },
    }));

/**
 * The wire request (view.ts accessModRequestView, in its key order) as PostgreSQL writes it for the load-all
 * stream (000 §9; shared/stream-page.ts), over the columns of `accessModListSql`'s rows; role blocks not in
 * the contract's form and links to encode are finished by the view's code (which refuses bad role blocks).
 */
export function accessModRowJson(temporal: TemporalUi): RowJson {
  const col = (k: string) => valueJson(`t."${k}"`);
  const blocks = accessControlsJson('t."accessControls"');
  const proxy = (e: string) => valueJson(`CASE WHEN t."isProxyRequest" THEN ${e} END`);
  return {
    sql: rowSql(
      [
        ...(['id', 'workflowId', 'requestType', 'requestStatus'] as const).map((k) => [k, col(k)] as const),
        ...(['requesterComments', 'reviewerComments', 'sysaidTicket', 'inactive'] as const).map(
          (k) => [k, col(k)] as const,
        ),
        ['sysdat', isoJson('t."sysdat"')],
        ['dchng', isoJson('t."dchng"')],
        ['lastModifiedBy', col('lastModifiedBy')],
        ['subjectUserId', col('subjectUserId')],
        ['proxyUserId', proxy('t."requesterUserId"')],
        ['portalUserId', col('subjectUserId')],
        ['firstName', col('subjectFirstName')],
        ['lastName', col('subjectLastName')],
        ['email', col('subjectEmail')],
        ['isProxyRequest', col('isProxyRequest')],
        ['proxyName', proxy(`t."requesterFirstName" || ' ' || t."requesterLastName"`)],
        ['accessControls', blocks.json],
        ['versionno', col('versionno')],
        ['allowedNextStatuses', nextStatusesJson('t."requestStatus"')],
        ['workflowUrl', workflowUrlJson(temporal, 't."workflowId"')],
        ['existingUserAccessId', col('existingUserAccessId')],
      ],
      { accessControls: blocks.raw, workflowUrl: `'null'` },
    ),
    finish: (row) =>
      Object.assign(row, {
        accessControls: parsedBlocks(row.accessControls),
        workflowUrl: workflowUrl(temporal.uiUrl, temporal.namespace, String(row.workflowId)),
      }),
  };
}

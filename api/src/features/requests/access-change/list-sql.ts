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

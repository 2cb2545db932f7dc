/**
 * The profile-change lists as SQL (001 §7 GET /, /status/{status}, /user, /user/{userId}): which requests a
 * list holds, their order (newest first, then id) and their columns, written once and read two ways: one page
 * (LIMIT/OFFSET with the count beside it, shared/sql.ts pageAndCount) or the whole list through the load-all
 * stream (shared/stream-page.ts). Values are always bound; rows are parsed with zod.
 */
import { z } from 'zod';
import { RESOLVED_STATUSES, type RequestStatus } from '@portal/contract';
import { Prisma } from '@portal/db';
import { REQUEST_LIST_SORT, RequestRowSchema, requestListSql } from '../../../shared/request-list-sql';
import type { LoadAllSql } from '../../../shared/stream-page';
import { type RowJson, isoJson, nextStatusesJson, rowSql, valueJson, workflowUrlJson } from '../../../shared/row-json';
import { type TemporalUi, workflowUrl } from '../../../shared/views';
import type { ProfileChangeRow } from './view';

/** Which requests one list holds. */
export type ProfileChangeSelection =
  | { kind: 'user'; portalUserId: number }
  | { kind: 'all' }
  | { kind: 'pending' }
  | { kind: 'status'; status: RequestStatus };

/** The order of every list, as the answer's `sort` names it. */
export const PROFILE_CHANGE_LIST_SORT = REQUEST_LIST_SORT;

const status = (s: RequestStatus) => Prisma.sql`${s}::"RequestStatus"`;

function whereOf(sel: ProfileChangeSelection): Prisma.Sql {
  switch (sel.kind) {
    case 'user':
      return Prisma.sql`p."portalUserId" = ${sel.portalUserId}`;
    case 'all':
      return Prisma.sql`TRUE`;
    case 'pending':
      return Prisma.sql`p."requestStatus" NOT IN (${Prisma.join(RESOLVED_STATUSES.map(status))})`;
    case 'status':
      return Prisma.sql`p."requestStatus" = ${status(sel.status)}`;
  }
}

/** The columns the wire view reads (view.ts), the requester's username beside the request's own. */
const COLUMNS = Prisma.raw(`p."id", p."workflowId", p."requestStatus", p."portalUserId", p."firstName",
  p."lastName", p."email", p."originalFirstName", p."originalLastName", p."originalEmail",
  p."requesterComments", p."reviewerComments", p."sysaidTicket", p."versionno", p."inactive", p."sysdat",
  p."dchng", p."lastModifiedBy", u."username"`);
const USER = Prisma.sql`JOIN "PortalUser" u ON u."id" = p."portalUserId"`;

/**
 * The statements of one list: every row in order (for the load-all stream), and the count; with `page`, the
 * rows of that page only.
 */
export const profileChangeListSql = (sel: ProfileChangeSelection, page?: { page: number; size: number }): LoadAllSql =>
  requestListSql(
    { table: 'ProfileChangeRequest', alias: 'p', columns: COLUMNS, joins: USER, where: whereOf(sel) },
    page,
  );

const RowSchema = RequestRowSchema.extend({
  portalUserId: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  originalFirstName: z.string(),
  originalLastName: z.string(),
  originalEmail: z.string(),
  username: z.string(),
});

/**
 * PostgreSQL's rows of `profileChangeListSql` as the view's input.
 * @throws ZodError when a row has an unexpected shape (a schema drift, answered 500).
 */
export const parseProfileChangeRows = (rows: unknown[]): ProfileChangeRow[] =>
  z
    .array(RowSchema)
    .parse(rows)
    .map(({ username, ...r }) => ({ ...r, user: { username } }));

/**
 * The wire request (view.ts profileChangeView, in its key order) as PostgreSQL writes it for the load-all
 * stream (000 §9; shared/stream-page.ts), over the columns of `profileChangeListSql`'s rows; a link to
 * encode is finished by the view's code.
 */
export function profileChangeRowJson(temporal: TemporalUi): RowJson {
  const col = (k: string) => [k, valueJson(`t."${k}"`)] as const;
  return {
    sql: rowSql(
      [
        ...['id', 'portalUserId', 'firstName', 'lastName', 'email'].map(col),
        ...['originalFirstName', 'originalLastName', 'originalEmail', 'username', 'requestStatus'].map(col),
        ...['requesterComments', 'reviewerComments', 'sysaidTicket'].map(col),
        ['sysdat', isoJson('t."sysdat"')],
        ['dchng', isoJson('t."dchng"')],
        ...['lastModifiedBy', 'inactive', 'versionno'].map(col),
        ['allowedNextStatuses', nextStatusesJson('t."requestStatus"')],
        col('workflowId'),
        ['workflowUrl', workflowUrlJson(temporal, 't."workflowId"')],
      ],
      { workflowUrl: `'null'` },
    ),
    finish: (row) =>
      Object.assign(row, { workflowUrl: workflowUrl(temporal.uiUrl, temporal.namespace, String(row.workflowId)) }),
  };
}

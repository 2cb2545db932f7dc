/**
 * The registration lists as SQL (001 §7 GET user_registration/, /status/{status}, /user, /user/{userId}; 000 §7
 * user_management/user_registration/proxy[/{id}]): which registrations a list holds, always without the deleted
 * ones (001 §4 'A registration is shown as pending or DENIED': a deleted one is kept for the audit trail and never
 * listed, whichever list or status is asked), and their order, written once and read as one page, as the whole
 * list, or as the load-all stream (shared/stream-page.ts). Values are always bound; rows are parsed with zod.
 */
import { z } from 'zod';
import { AccessControlSchema, REGISTRATION_STATUSES } from '@portal/contract';
import { Prisma, type Registration as RegistrationRow } from '@portal/db';
import type { LoadAllSql } from '../../../shared/stream-page';
import {
  type RowJson,
  accessControlsJson,
  isoJson,
  rowSql,
  valueJson,
  workflowUrlJson,
} from '../../../shared/row-json';
import { type TemporalUi, workflowUrl } from '../../../shared/views';

/** Which registrations one list holds. */
export type RegistrationSelection =
  | { kind: 'status'; status: 'all' | 'pending' | (typeof REGISTRATION_STATUSES)[number] }
  | { kind: 'proxy'; proxyUserId: number }
  | { kind: 'user'; portalUserId: number };

/** The sort keys of the status list (their columns); the default is sysdat descending. */
export const REGISTRATION_SORT_FIELDS = [
  'sysdat',
  'dchng',
  'lastName',
  'firstName',
  'email',
  'organizationName',
  'registrationStatus',
] as const;
export type RegistrationSortField = (typeof REGISTRATION_SORT_FIELDS)[number];

const kind = (s: string) => Prisma.sql`${s}::"RegistrationStatus"`;

function whereOf(sel: RegistrationSelection): Prisma.Sql {
  const listed = Prisma.sql`r."registrationStatus" <> ${kind('DELETED')}`;
  switch (sel.kind) {
    case 'proxy':
      return Prisma.sql`${listed} AND r."proxyUserId" = ${sel.proxyUserId}`;
    case 'user':
      return Prisma.sql`${listed} AND r."portalUserId" = ${sel.portalUserId}`;
    case 'status':
      if (sel.status === 'all') return listed;
      return Prisma.sql`${listed} AND r."registrationStatus" = ${kind(sel.status === 'pending' ? 'PENDING' : sel.status)}`;
  }
}

/**
 * The statements of one list in `field` `dir` order, then by id the same way: every row (the whole list, or the
 * load-all stream), and the count; with `page`, the rows of that page only.
 */
export function registrationListSql(
  sel: RegistrationSelection,
  order: { field: RegistrationSortField; dir: 'asc' | 'desc' },
  page?: { page: number; size: number },
): LoadAllSql {
  const where = whereOf(sel);
  // Both only from the whitelists above.
  const by = Prisma.raw(`r."${order.field}" ${order.dir.toUpperCase()}, r."id" ${order.dir.toUpperCase()}`);
  const window = page ? Prisma.sql`LIMIT ${page.size} OFFSET ${(page.page - 1) * page.size}` : Prisma.empty;
  return {
    rows: Prisma.sql`SELECT r.* FROM "Registration" r WHERE ${where} ORDER BY ${by} ${window}`,
    count: Prisma.sql`SELECT count(*)::int AS total FROM "Registration" r WHERE ${where}`,
  };
}

const text = z.string();
const optional = z.string().nullable();
const RowSchema = z.object({
  id: z.number().int(),
  workflowId: text,
  registrationStatus: z.enum(REGISTRATION_STATUSES),
  firstName: text,
  lastName: text,
  jobTitle: text,
  organizationName: text,
  phoneNumber: text,
  phoneExtension: text,
  email: text,
  accessControls: z.custom<Prisma.JsonValue>((v) => v !== undefined),
  requesterComments: text,
  reviewerComments: text,
  sysaidTicket: text,
  portalRoleIds: z.array(z.number().int()),
  isProxy: z.boolean(),
  proxyUserId: z.number().int().nullable(),
  proxyName: optional,
  proxyEmail: optional,
  proxyPhone: optional,
  proxyPhoneExt: optional,
  personCompletingThisFormEmail: text,
  personCompletingThisFormFullName: text,
  personCompletingThisFormPhoneNumber: text,
  personCompletingThisFormPhoneExtension: text,
  username: optional,
  gecos: optional,
  accountType: optional,
  directoryUuid: optional,
  portalUserId: z.number().int().nullable(),
  passwordLinkId: z.number().int().nullable(),
  versionno: z.number().int(),
  sysdat: z.date(),
  dchng: z.date(),
  lastModifiedBy: text,
  workflowStartedAt: z.date().nullable(),
});

/**
 * PostgreSQL's rows of `registrationListSql` as registration rows.
 * @throws ZodError when a row has an unexpected shape (a schema drift, answered 500).
 */
export const parseRegistrationRows = (rows: unknown[]): RegistrationRow[] => z.array(RowSchema).parse(rows);

/**
 * The wire registration (view.ts registrationView, in its key order) as PostgreSQL writes it for the load-all
 * stream (000 §9; shared/stream-page.ts), over the columns of `registrationListSql`'s rows; role blocks not in
 * the contract's form (listed as none, as the view lists them) and links to encode are finished by the view's
 * code.
 */
export function registrationRowJson(temporal: TemporalUi): RowJson {
  const col = (k: string) => [k, valueJson(`t."${k}"`)] as const;
  const blocks = accessControlsJson('t."accessControls"');
  return {
    sql: rowSql(
      [
        ...['id', 'versionno', 'firstName', 'lastName', 'jobTitle', 'organizationName'].map(col),
        ...['phoneNumber', 'phoneExtension', 'email'].map(col),
        ['accessControls', blocks.json],
        ...['requesterComments', 'reviewerComments', 'sysaidTicket', 'registrationStatus'].map(col),
        ...['portalRoleIds', 'isProxy', 'proxyUserId', 'proxyName', 'proxyEmail', 'proxyPhone'].map(col),
        ...['proxyPhoneExt', 'personCompletingThisFormEmail', 'personCompletingThisFormFullName'].map(col),
        ...['personCompletingThisFormPhoneNumber', 'personCompletingThisFormPhoneExtension', 'portalUserId'].map(col),
        ['sysdat', isoJson('t."sysdat"')],
        ['dchng', isoJson('t."dchng"')],
        ...['lastModifiedBy', 'workflowId'].map(col),
        ['workflowUrl', workflowUrlJson(temporal, 't."workflowId"')],
      ],
      { accessControls: blocks.raw, workflowUrl: `'null'` },
    ),
    finish: (row) => {
      const parsed = AccessControlSchema.array().safeParse(row.accessControls);
      return Object.assign(row, {
        accessControls: parsed.success ? parsed.data : [],
        workflowUrl: workflowUrl(temporal.uiUrl, temporal.namespace, String(row.workflowId)),
      });
    },
  };
}

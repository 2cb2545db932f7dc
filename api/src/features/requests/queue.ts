/**
 * The User Requests queue (000 §7 user_requests/{status}, 000 §3 User request): access-modification
 * requests from the projection, server-paged, sorted and OR-filtered over the row's text columns.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Page, PageQuery, RequestStatus, UserRequestRow } from '@portal/contract';
import {
  PageQuerySchema,
  REQUEST_STATUSES,
  RESOLVED_STATUSES,
  UserRequestRowSchema,
  UserRequestsStatusSchema,
} from '@portal/contract';
import type { Prisma, PrismaClient } from '@portal/db';
import type { Deps } from '../../deps';
import { pageWindow, toPage } from '../../http/page';
import { SECURE_ERRORS, pageSchema } from '../../http/route-schemas';

const SORTS: Record<string, (dir: Prisma.SortOrder) => Prisma.AccessModRequestOrderByWithRelationInput> = {
  dateSubmitted: (d) => ({ sysdat: d }),
  lastModified: (d) => ({ dchng: d }),
  lastModifiedBy: (d) => ({ lastModifiedBy: d }),
  requestStatus: (d) => ({ requestStatus: d }),
  requestType: (d) => ({ requestType: d }),
  userRequestType: (d) => ({ requestType: d }),
  sysaidTicket: (d) => ({ sysaidTicket: d }),
  firstName: (d) => ({ subject: { firstName: d } }),
  lastName: (d) => ({ subject: { lastName: d } }),
  email: (d) => ({ subject: { email: d } }),
  organizationName: (d) => ({ subject: { organizationName: d } }),
};

/** Sort fields the queue accepts (anything else is answered 422 by the route). */
export const USER_REQUEST_SORT_FIELDS = Object.keys(SORTS);

export async function listUserRequests(
  prisma: PrismaClient,
  status: 'pending' | 'all' | RequestStatus,
  q: PageQuery,
): Promise<Page<UserRequestRow>> {
  const statusWhere: Prisma.AccessModRequestWhereInput =
    status === 'all'
      ? {}
      : status === 'pending'
        ? { requestStatus: { notIn: [...RESOLVED_STATUSES] } }
        : { requestStatus: status };
  const where: Prisma.AccessModRequestWhereInput = { AND: [statusWhere, filterWhere(q.filter)] };
  const [field = 'dateSubmitted', dir = 'desc'] = (q.sort ?? 'dateSubmitted,desc').split(',');
  const orderBy = [SORTS[field]!(dir as Prisma.SortOrder), { id: 'desc' as const }];
  const [total, rows] = await Promise.all([
    prisma.accessModRequest.count({ where }),
    prisma.accessModRequest.findMany({
      where,
      orderBy,
      ...pageWindow(q),
      include: { subject: true },
    }),
  ]);
  return toPage(
    rows.map((r) => ({
      id: r.id,
      userRequestType: 'ACCESS_CHANGE',
      requestType: r.requestType,
      requestStatus: r.requestStatus,
      dateSubmitted: r.sysdat.toISOString(),
      sysaidTicket: r.sysaidTicket,
      lastModified: r.dchng.toISOString(),
      lastModifiedBy: r.lastModifiedBy,
      firstName: r.subject.firstName,
      lastName: r.subject.lastName,
      email: r.subject.email,
      organizationName: r.subject.organizationName,
    })),
    total,
    q,
    `${field},${dir}`,
  );
}

function filterWhere(filter: string | undefined): Prisma.AccessModRequestWhereInput {
  if (!filter) return {};
  const contains = { contains: filter, mode: 'insensitive' as const };
  const upper = filter.toUpperCase().replace(/ /g, '_');
  const statuses = REQUEST_STATUSES.filter((s) => s.includes(upper));
  return {
    OR: [
      { subject: { firstName: contains } },
      { subject: { lastName: contains } },
      { subject: { email: contains } },
      { subject: { organizationName: contains } },
      { sysaidTicket: contains },
      { lastModifiedBy: contains },
      ...(statuses.length ? [{ requestStatus: { in: statuses } }] : []),
    ],
  };
}

const QueueQuery = PageQuerySchema.extend({
  sort: z
    .string()
    .regex(new RegExp(`^(${USER_REQUEST_SORT_FIELDS.join('|')})(,(asc|desc))?$`))
    .optional(),
});

/** GET /rest/secure/user_management/user_requests/{status} (000 §7), READ_USERS. */
export const userRequestQueueRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/rest/secure/user_management/user_requests/:status',
    {
      config: { permission: 'READ_USERS' },
      schema: {
        params: z.object({ status: UserRequestsStatusSchema }),
        querystring: QueueQuery,
        response: { 200: pageSchema(UserRequestRowSchema), ...SECURE_ERRORS },
      },
    },
    async (req) => listUserRequests(deps.prisma, req.params.status, req.query),
  );
};

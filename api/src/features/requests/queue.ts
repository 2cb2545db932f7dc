/**
 * The User Requests queue (000 §7 user_requests/{status}, 000 §3 User request): access-modification
 * requests from the projection, server-paged, sorted and OR-filtered over the row's text columns.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Page, PageQuery, RequestStatus, UserRequestRow } from '@portal/contract';
import { PageQuerySchema, REQUEST_STATUSES, RESOLVED_STATUSES, UserRequestsStatusSchema } from '@portal/contract';
import type { Prisma, PrismaClient } from '@portal/db';
import { requireAuth } from '../../auth/guard';
import type { Deps } from '../../deps';
import { pageWindow, toPage } from '../../http/page';
import { parseInput } from '../../http/validate';

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
export function registerUserRequestQueueRoutes(app: FastifyInstance, deps: Deps): void {
  app.get('/user_management/user_requests/:status', async (req) => {
    requireAuth(req, 'READ_USERS');
    const { status } = parseInput(z.object({ status: UserRequestsStatusSchema }), req.params);
    const query = parseInput(QueueQuery, req.query);
    return listUserRequests(deps.prisma, status, query);
  });
}

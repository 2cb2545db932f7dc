/**
 * The User Requests queue (000 §7 user_requests/{status}, 000 §3 User request): every request kind's rows
 * (access-change requests and registrations) from one read model, server-paged, sorted and OR-filtered over the row's text columns. A hot read:
 * plain SQL (queue-sql.ts) instead of Prisma's query compiler (issue 14). The load-all size (000 §9) answers the
 * whole view as one page, streamed (shared/stream-page.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Page, PageQuery, UserRequestRow, UserRequestsStatus } from '@portal/contract';
import {
  LOAD_ALL_PAGE_CHECK,
  LOAD_ALL_SIZE,
  PageQuerySchema,
  UserRequestRowSchema,
  UserRequestsStatusSchema,
  fetchSizeSchema,
  loadAllOnFirstPage,
} from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import type { Deps } from '../../deps';
import { toPage } from '../../http/page';
import { pageAndCount } from '../../shared/sql';
import { countThenPage } from '../../shared/filtered-page';
import { sendStream, streamWholeList } from '../../shared/stream-page';
import { SECURE_ERRORS, pageSchema } from '../../http/route-schemas';
import {
  QUEUE_ROW_JSON,
  QueueCountSchema,
  QueueRowSchema,
  USER_REQUEST_SORT_FIELDS,
  userRequestQueueSql,
} from './queue-sql';

export { USER_REQUEST_SORT_FIELDS } from './queue-sql';

/**
 * One queue page (raw SQL with zod-parsed rows: queue-sql.ts, on the hot-read pool, shared/sql.ts; unfiltered,
 * the first page and the count side by side, a deeper page after the count: pageAndCount; filtered, the count
 * first: countThenPage).
 * @throws ZodError when PostgreSQL answers rows of an unexpected shape (a schema drift, answered 500).
 */
export async function listUserRequests(
  prisma: PrismaClient,
  status: UserRequestsStatus,
  q: PageQuery,
): Promise<Page<UserRequestRow>> {
  const [field, dir = 'desc'] = orderOf(q);
  const build = (total?: number) => userRequestQueueSql(status, q, field, dir, total);
  // A filter's best plan depends on its text (the trigram index, or the order's index for a common term):
  // planned for its values each time, never one generic plan. Filtered, the count comes first and says
  // whether the page may walk the view's index (shared/filtered-page.ts).
  const { total, rows } = q.filter
    ? await countThenPage(prisma, build, { prepare: false })
    : await pageAndCount(prisma, build, q.page).then((both) => ({
        total: QueueCountSchema.parse(both.count)[0]!.total,
        rows: both.rows,
      }));
  return toPage(queueRows(rows), total, q, `${field},${dir}`);
}

/** The order `q` asks for (the newest first when none). */
const orderOf = (q: PageQuery) => (q.sort ?? 'dateSubmitted,desc').split(',') as [string, 'asc' | 'desc' | undefined];

/** PostgreSQL's queue rows as wire rows. @throws ZodError on rows of an unexpected shape (a schema drift). */
const queueRows = (rows: unknown[]): UserRequestRow[] =>
  z
    .array(QueueRowSchema)
    .parse(rows)
    .map((r) => ({
      id: r.id,
      userRequestType: r.userRequestType,
      requestType: r.requestType,
      requestStatus: r.requestStatus,
      dateSubmitted: r.sysdat.toISOString(),
      sysaidTicket: r.sysaidTicket,
      lastModified: r.dchng.toISOString(),
      lastModifiedBy: r.lastModifiedBy,
      firstName: r.firstName,
      lastName: r.lastName,
      email: r.email,
      organizationName: r.organizationName,
    }));

const QueueQuery = PageQuerySchema.extend({
  size: fetchSizeSchema(25),
  sort: z
    .string()
    .regex(new RegExp(`^(${USER_REQUEST_SORT_FIELDS.join('|')})(,(asc|desc))?$`))
    .optional(),
}).refine(loadAllOnFirstPage, LOAD_ALL_PAGE_CHECK);

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
    async (req, reply) => {
      const q = req.query;
      if (q.size !== LOAD_ALL_SIZE) return listUserRequests(deps.prisma, req.params.status, q);
      const [field, dir = 'desc'] = orderOf(q);
      const sql = userRequestQueueSql(req.params.status, q, field, dir);
      return sendStream(reply, await streamWholeList(deps.prisma, sql, q, `${field},${dir}`, QUEUE_ROW_JSON));
    },
  );
};

/**
 * The Users list (000 §2 Users list, §7 GET /rest/secure/user_management/users, READ_USERS): one tab (the
 * `inactive` query) server-paged, sorted and OR-filtered. A hot read: plain SQL (list-sql.ts) on the API's
 * own pg pool (shared/sql.ts `queryRows`) with rows parsed by zod, not Prisma's query compiler (issue 11
 * Speed). A bad page, size, sort, tab or filter is answered 422 with fieldErrors.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Page, UserListRow, UserSortField, UsersQuery } from '@portal/contract';
import { USERS_DEFAULT_SORT, USERS_LOAD_ALL_SIZE, UserListRowSchema, UsersQuerySchema } from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import type { Deps } from '../../deps';
import { toPage } from '../../http/page';
import { SECURE_ERRORS, pageSchema } from '../../http/route-schemas';
import { requireAuth } from '../../auth/guard';
import { checkProxyListing, readUsersOrProxy } from '../../shared/proxy-users';
import { pageAndCount } from '../../shared/sql';
import { countThenPage } from '../../shared/filtered-page';
import { UserListCountSchema, usersListSql, usersRowJson } from './list-sql';
import { sendStream, streamWholeList } from '../../shared/stream-page';

/** The statements of `q` and the order they apply. */
function listStatements(q: UsersQuery, total?: number) {
  const [field, dir = 'asc'] = (q.sort ?? USERS_DEFAULT_SORT).split(',') as [UserSortField, 'asc' | 'desc'];
  const site = { siteCode: q.siteCode, laoCode: q.laoCode, unaffiliated: q.unaffiliated === 'true' };
  return { sql: usersListSql(q.inactive === 'true', q, field, dir, site, total), field, dir };
}

/**
 * One page of the Users list: the first page and the count side by side, a deeper page after the count
 * (shared/sql.ts pageAndCount); a filter alone, sorted by an indexed field, is counted first and its page
 * walks the tab's index when the count says it may (shared/filtered-page.ts). `sort` in the answer is the
 * order applied ('person.lastName,asc' when none was asked).
 * @throws ZodError when PostgreSQL answers rows of an unexpected shape (a schema drift, answered 500).
 */
export async function listUsers(prisma: PrismaClient, q: UsersQuery): Promise<Page<UserListRow>> {
  const { field, dir, sql } = listStatements(q);
  const build = (total?: number) => listStatements(q, total).sql;
  // Planned for their values each time (shared/sql.ts: a generic plan scans the whole tab).
  const opts = { prepare: false };
  const { total, rows } = sql.walk
    ? await countThenPage(prisma, build, opts)
    : await pageAndCount(prisma, build, q.page, opts).then((both) => ({
        total: UserListCountSchema.parse(both.count)[0]!.total,
        rows: both.rows,
      }));
  // The statement selects exactly the wire row's columns.
  return toPage(z.array(UserListRowSchema).parse(rows), total, q, `${field},${dir}`);
}

/**
 * GET /rest/secure/user_management/users (000 §7), READ_USERS; a proxy without READ_USERS (001 §2.7) may
 * read one site's users or the unaffiliated ones within their reach (shared/proxy-users.ts).
 */
export const usersListRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/rest/secure/user_management/users',
    {
      config: { permission: 'USER' },
      onRequest: readUsersOrProxy(deps),
      schema: {
        querystring: UsersQuerySchema,
        response: { 200: pageSchema(UserListRowSchema), ...SECURE_ERRORS },
      },
    },
    async (req, reply) => {
      await checkProxyListing(deps, requireAuth(req), req.query);
      if (req.query.size !== USERS_LOAD_ALL_SIZE) return listUsers(deps.prisma, req.query);
      // 000 §9 load-all: the same page envelope, streamed (shared/stream-page.ts).
      const { sql, field, dir } = listStatements(req.query);
      return sendStream(reply, await streamWholeList(deps.prisma, sql, req.query, `${field},${dir}`, usersRowJson));
    },
  );
};

/**
 * The User Requests queue's filtered total (000 §7 user_requests/{status}, issue 24 Growth): counted from the
 * counts kept per kind, status and shared text (organisation, last modifier) plus the rows of the other groups
 * whose own text matches (migration 20261210000000_queue_shared_counts). Checked against a plain count of the
 * displayed columns, for matches in each field, in several fields of one row, in capitals, with LIKE's
 * wildcards, in each view, and after the rows move between groups (a person's new organisation, a review, a
 * deletion). A filter matching many rows reads the same pages whether its page walks the view's index
 * (shared/filtered-page.ts) or collects the matches.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Prisma, PrismaClient } from '@portal/db';
import { userRequestQueueSql } from '../../../api/src/features/requests/queue-sql';
import { type TestApi, caller, signIn, startApi } from '../harness';
import { until } from './support';

let api: TestApi;
let prisma: PrismaClient;
/** A word of this run only. */
const word = `zs${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
let personId = 0;

/** A registration row (no workflow runs for it) with `fields` over plain defaults. */
const registration = (i: number, fields: Record<string, string>) =>
  prisma.registration.create({
    data: {
      workflowId: `registration-total-${word}-${i}`,
      registrationStatus: 'PENDING',
      firstName: 'Tess',
      lastName: 'Plain',
      jobTitle: 'Coordinator',
      organizationName: 'Plain Org',
      phoneNumber: '5550100',
      email: `plain-${word.slice(-6)}-${i}@example.org`,
      accessControls: [],
      lastModifiedBy: 'anonymous',
      workflowStartedAt: new Date(),
      ...fields,
    },
  });

beforeAll(async () => {
  api = await startApi();
  prisma = api.prisma;
  const person = await prisma.portalUser.create({
    data: {
      username: `${word}-person`.slice(0, 30),
      firstName: 'Orla',
      lastName: 'Total',
      email: `orla.${word}@example.org`.replace(word, 'x'),
      organizationName: `${word} Clinic`,
      phoneNumber: '5550101',
    },
  });
  personId = person.id;
  // Two access-change requests of one person whose organisation holds the word, one resolved.
  for (const [i, requestStatus] of (['PENDING_REVIEW', 'APPROVED'] as const).entries()) {
    await prisma.accessModRequest.create({
      data: {
        workflowId: `access-change-total-${word}-${i}`,
        requestType: 'NEW',
        requestStatus,
        subjectUserId: person.id,
        requesterUserId: person.id,
        accessControls: [],
        lastModifiedBy: 'reviewer',
        workflowStartedAt: new Date(),
      },
    });
  }
  await registration(1, { organizationName: `The ${word.toUpperCase()} Institute` }); // organisation
  await registration(2, { lastModifiedBy: `${word}-reviewer` }); // last modifier
  await registration(3, { lastName: `Mc${word}` }); // own text: a name
  await registration(4, { email: `${word}@example.org` }); // own text: the email
  await registration(5, { lastName: word, organizationName: `${word} Org` }); // both parts: counted once
  await registration(6, { lastName: `${word}%_x`, registrationStatus: 'DENIED' }); // wildcards as characters
  await registration(7, { firstName: 'Nobody' }); // no match
});

afterAll(async () => {
  await prisma.registration.deleteMany({ where: { workflowId: { startsWith: `registration-total-${word}` } } });
  await prisma.registration.deleteMany({ where: { workflowId: { startsWith: `registration-many-${word}` } } });
  await prisma.accessModRequest.deleteMany({ where: { subjectUserId: personId } });
  await prisma.portalUser.deleteMany({ where: { id: personId } });
  await api?.close();
});

/** The total the route answers for `view` and `filter`, beside a plain count of the displayed columns. */
async function totals(view: string, filter: string) {
  const reviewer = await signIn(api.app, 'reviewer');
  const res = await caller(api.app)(
    reviewer,
    'GET',
    `/rest/secure/user_management/user_requests/${view}?filter=${encodeURIComponent(filter)}&size=50`,
  );
  expect(res.statusCode, res.body).toBe(200);
  const page = res.json() as { content: unknown[]; totalElements: number };
  expect(page.content).toHaveLength(Math.min(page.totalElements, 50));
  const like = `%${filter.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const viewSql = view === 'all' ? 'true' : view === 'pending' ? 'NOT q."resolved"' : `q."requestStatus" = '${view}'`;
  const [plain] = await prisma.$queryRawUnsafe<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM "UserRequestQueue" q WHERE ${viewSql} AND (
      lower(q."firstName") LIKE $1 OR lower(q."lastName") LIKE $1 OR lower(q."email") LIKE $1
      OR lower(q."organizationName") LIKE $1 OR lower(q."lastModifiedBy") LIKE $1 OR lower(q."sysaidTicket") LIKE $1)`,
    like,
  );
  return { route: page.totalElements, plain: plain!.n };
}

describe('the queue total of a filter', () => {
  it('counts every matching row once, whichever field matches, in each view', async () => {
    expect(await totals('all', word)).toEqual({ route: 8, plain: 8 });
    expect(await totals('all', word.toUpperCase())).toEqual({ route: 8, plain: 8 });
    expect(await totals('pending', word)).toEqual({ route: 6, plain: 6 });
    expect(await totals('PENDING', word)).toEqual({ route: 5, plain: 5 });
    expect(await totals('APPROVED', word)).toEqual({ route: 1, plain: 1 });
    expect(await totals('DENIED', word)).toEqual({ route: 1, plain: 1 });
    expect(await totals('all', `${word}%_x`)).toEqual({ route: 1, plain: 1 });
    expect(await totals('all', `${word}%`)).toEqual({ route: 1, plain: 1 });
    expect(await totals('all', `${word}-reviewer`)).toEqual({ route: 1, plain: 1 });
    expect(await totals('all', `${word} clinic`)).toEqual({ route: 2, plain: 2 });
    expect(await totals('all', `${word}-absent`)).toEqual({ route: 0, plain: 0 });
  });

  it('follows rows that move: a new organisation, a review, a deletion', async () => {
    await prisma.portalUser.update({ where: { id: personId }, data: { organizationName: 'Elsewhere Clinic' } });
    expect(await totals('all', word)).toEqual({ route: 6, plain: 6 });
    const elsewhere = await totals('all', 'elsewhere clinic');
    expect(elsewhere.route).toBe(elsewhere.plain);

    await prisma.registration.updateMany({
      where: { workflowId: `registration-total-${word}-3` },
      data: { registrationStatus: 'DENIED', lastModifiedBy: 'reviewer' },
    });
    expect(await totals('PENDING', word)).toEqual({ route: 4, plain: 4 });
    expect(await totals('DENIED', word)).toEqual({ route: 2, plain: 2 });

    await prisma.registration.deleteMany({ where: { workflowId: `registration-total-${word}-1` } });
    expect(await totals('all', word)).toEqual({ route: 5, plain: 5 });

    // Rows leave a group from the slot they were counted in: no slot is left at 0 or below, and the kept
    // counts add up to the rows.
    const [kept] = await prisma.$queryRawUnsafe<{ notPositive: number; n: number }[]>(
      `SELECT count(*) FILTER (WHERE "n" <= 0)::int AS "notPositive", coalesce(sum("n"), 0)::int AS "n"
       FROM "UserRequestQueueSharedCount" WHERE "sharedText" LIKE $1`,
      `%${word}%`,
    );
    const [live] = await prisma.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS "n" FROM "UserRequestQueue" WHERE "sharedText" LIKE $1`,
      `%${word}%`,
    );
    expect(kept).toEqual({ notPositive: 0, n: live!.n });
  });

  it('counts a status or kind named by the filter from the shared counts', async () => {
    const view = (v: string) =>
      v === 'all' ? 'true' : v === 'pending' ? 'NOT q."resolved"' : `q."requestStatus" = '${v}'`;
    for (const [v, filter, named] of [
      ['all', 'denied', `q."requestStatus" = 'DENIED'`],
      ['all', 'pending review', `q."requestStatus" = 'PENDING_REVIEW'`],
      ['pending', 'registration', `q."userRequestType" = 'REGISTRATION'`],
      ['APPROVED', 'access', `q."userRequestType" = 'ACCESS_CHANGE'`],
    ] as const) {
      const plainCount = async () => {
        const [plain] = await prisma.$queryRawUnsafe<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM "UserRequestQueue" q WHERE ${view(v)} AND (${named}
            OR lower(concat_ws(E'\\n', q."firstName", q."lastName", q."email", q."organizationName", q."lastModifiedBy",
              q."sysaidTicket", to_char(q."sysdat", 'MM/DD/YYYY FMHH12:MI AM'), to_char(q."dchng", 'MM/DD/YYYY FMHH12:MI AM'))) LIKE $1)`,
          `%${filter}%`,
        );
        return plain!.n;
      };
      // These filters match the rows other files file and resolve beside this one: the route's total is
      // compared with the plain count at a moment the counts read just before and just after it agree.
      let route = -1;
      let plain = -1;
      await until(async () => {
        const before = await plainCount();
        route = (await totals(v, filter)).route;
        plain = await plainCount();
        return before === plain;
      }, `the queue's ${v} '${filter}' rows to hold still around the route's total`);
      expect(route, `${v} ${filter}`).toBe(plain);
    }
  });
});

describe('a filter matching many rows, newest first', () => {
  it('reads the pages a plain ordered query reads, walked or collected', async () => {
    const many = `zm${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
    /** 60 rows sharing an organisation, older than every other row (2001), and one whose own name matches. */
    const rows = Array.from({ length: 60 }, (_, i) => ({
      workflowId: `registration-many-${word}-${i}`,
      registrationStatus: i % 2 ? ('PENDING' as const) : ('DENIED' as const),
      firstName: 'Many',
      lastName: `Row${i}`,
      jobTitle: 'Coordinator',
      organizationName: `${many} Org`,
      phoneNumber: '5550100',
      email: `many-${i}-${word.slice(-6)}@example.org`,
      accessControls: [],
      lastModifiedBy: 'anonymous',
      sysdat: new Date(Date.UTC(2001, 0, 1, 0, 0, i)),
      workflowStartedAt: new Date(),
    }));
    await prisma.registration.createMany({ data: rows });
    /** The ids of one page as a plain ordered query reads them. */
    const expected = async (view: string, offset: number) =>
      (
        await prisma.$queryRawUnsafe<{ id: number }[]>(
          `SELECT id FROM "UserRequestQueue" q WHERE ${view} AND (lower(q."organizationName") LIKE $1
             OR lower(q."lastName") LIKE $1)
           ORDER BY q."sysdat" DESC NULLS LAST, q."id" DESC LIMIT 25 OFFSET ${offset}`,
          `%${many}%`,
        )
      ).map((r) => r.id);
    const pages = async () => {
      for (const [view, where, total] of [
        ['all', 'true', 60],
        ['pending', 'NOT q."resolved"', 30],
        ['DENIED', `q."requestStatus" = 'DENIED'`, 30],
      ] as const) {
        for (const page of [1, 2, 3]) {
          const reviewer = await signIn(api.app, 'reviewer');
          const res = await caller(api.app)(
            reviewer,
            'GET',
            `/rest/secure/user_management/user_requests/${view}?filter=${many}&page=${page}&size=25`,
          );
          expect(res.statusCode, res.body).toBe(200);
          const got = res.json() as { totalElements: number; content: Array<{ id: number }> };
          const own = await prisma.registration.count({
            where: { lastName: { contains: many }, registrationStatus: 'PENDING' },
          });
          expect(got.totalElements, `${view} page ${page}`).toBe(total + (view === 'DENIED' ? 0 : own));
          expect(
            got.content.map((r) => r.id),
            `${view} page ${page}`,
          ).toEqual(await expected(where, (page - 1) * 25));
        }
      }
    };
    await pages();

    // The walk itself: past the newer rows it holds the page; over the newer rows only, nothing.
    const run = async (sql: Prisma.Sql) =>
      (await prisma.$queryRawUnsafe<{ id: number }[]>(sql.text, ...sql.values)).map((r) => r.id);
    const walk = userRequestQueueSql('all', { page: 1, size: 25, filter: many }, 'dateSubmitted', 'desc', 60).walk!;
    const [newer] = await prisma.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM "UserRequestQueue" WHERE "sysdat" >= '2002-01-01'`,
    );
    expect(await run(walk(newer!.n + 1000))).toEqual(await expected('true', 0));
    expect(await run(walk(newer!.n))).toEqual([]);

    // A match in a row's own text too: the walk cannot see it, so the page is collected, the same pages.
    await prisma.registration.create({
      data: {
        ...rows[0]!,
        workflowId: `registration-many-${word}-own`,
        registrationStatus: 'PENDING',
        organizationName: 'Plain Org',
        lastName: `Mc${many}`,
        sysdat: new Date(),
      },
    });
    await pages();
  });
});

/**
 * The Users list's filtered total (000 §7 GET users, issue 24 Growth): the counts kept per tab and organisation
 * of the organisations the filter matches, plus the matching users of the other organisations (names, email,
 * phone, current site and LAO codes; migration 20261210100000_users_organization_counts). Checked against a
 * plain count, for matches in each field, in several fields of one user, in capitals, in either tab, and after
 * users move (a new organisation, a new tab, a deletion). A filter matching many users reads the same pages
 * whether its page walks the tab's index (shared/filtered-page.ts) or collects the matches.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Prisma, PrismaClient } from '@portal/db';
import { usersListSql } from '../../api/src/features/users/list-sql';
import { type Session, caller, signIn, startApi, type TestApi } from './harness';

let api: TestApi;
let prisma: PrismaClient;
let admin: Session;
/** A word of this run only. */
const word = `ut${crypto.randomBytes(3).toString('hex')}`;
const siteCode = `S-${word}`.toUpperCase();
const ids: Record<string, number> = {};

/** A user whose fields are plain defaults but for `fields`. */
async function user(key: string, fields: Record<string, string | boolean>) {
  const made = await prisma.portalUser.create({
    data: {
      username: `${word}-${key}`,
      firstName: 'Plain',
      lastName: 'Person',
      email: `${key}.${crypto.randomBytes(3).toString('hex')}@total.portal.test`,
      organizationName: 'Plain Org',
      phoneNumber: '555-0100',
      ...fields,
    },
  });
  ids[key] = made.id;
  return made;
}

beforeAll(async () => {
  api = await startApi();
  prisma = api.prisma;
  admin = await signIn(api.app, 'admin');
  await prisma.site.create({ data: { siteCode, siteName: `Site ${word}`, siteType: 'AO' } });
  for (const i of [1, 2, 3]) await user(`org${i}`, { organizationName: `${word.toUpperCase()} Clinic` });
  await user('inactiveOrg', { organizationName: `${word} Clinic`, inactive: true });
  await user('first', { firstName: `Mc${word}` });
  await user('email', { email: `${word}@total.portal.test` });
  await user('both', { lastName: word, organizationName: `${word} Clinic` }); // counted once
  for (const key of ['siteOnly', 'siteAndOrg']) {
    const made = await user(key, key === 'siteAndOrg' ? { organizationName: `${word} Clinic` } : {});
    await prisma.userAccess.create({
      data: {
        portalUserId: made.id,
        roleName: 'Site Staff',
        siteCodes: [siteCode],
        laoIds: [],
        createdBy: 'test',
        lastModifiedBy: 'test',
      },
    });
  }
  await user('none', {});
});

afterAll(async () => {
  await prisma.userAccess.deleteMany({ where: { portalUserId: { in: Object.values(ids) } } });
  await prisma.portalUser.deleteMany({ where: { username: { startsWith: `${word}-` } } });
  await prisma.site.deleteMany({ where: { siteCode } });
  await api?.close();
});

/** The total the route answers for a tab and `filter`, beside a plain count of the users the filter matches. */
async function totals(inactive: boolean, filter: string) {
  const res = await caller(api.app)(
    admin,
    'GET',
    `/rest/secure/user_management/users?inactive=${inactive}&filter=${encodeURIComponent(filter)}&filterType=OR&size=50`,
  );
  expect(res.statusCode, res.body).toBe(200);
  const page = res.json() as { content: unknown[]; totalElements: number };
  expect(page.content).toHaveLength(Math.min(page.totalElements, 50));
  const like = `%${filter.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const [plain] = await prisma.$queryRawUnsafe<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM "PortalUser" p WHERE p."inactive" = $2 AND (
      lower(p."firstName") LIKE $1 OR lower(p."lastName") LIKE $1 OR lower(p."email") LIKE $1
      OR lower(p."organizationName") LIKE $1 OR lower(p."phoneNumber") LIKE $1
      OR EXISTS (SELECT 1 FROM "UserAccess" a WHERE a."portalUserId" = p."id" AND NOT a."inactive"
        AND EXISTS (SELECT 1 FROM unnest(a."siteCodes") c WHERE lower(c) LIKE $1)))`,
    like,
    inactive,
  );
  return { route: page.totalElements, plain: plain!.n };
}

describe('the Users list total of a filter', () => {
  it('counts every matching user once, whichever field matches, in either tab', async () => {
    expect(await totals(false, word)).toEqual({ route: 8, plain: 8 });
    expect(await totals(false, word.toUpperCase())).toEqual({ route: 8, plain: 8 });
    expect(await totals(true, word)).toEqual({ route: 1, plain: 1 });
    expect(await totals(false, `${word} clinic`)).toEqual({ route: 5, plain: 5 });
    expect(await totals(false, siteCode)).toEqual({ route: 2, plain: 2 });
    expect(await totals(false, `${word}%`)).toEqual({ route: 0, plain: 0 });
  });

  it('follows users that move: a new organisation, a new tab, a deletion', async () => {
    await prisma.portalUser.update({ where: { id: ids.org1 }, data: { organizationName: 'Elsewhere' } });
    expect(await totals(false, word)).toEqual({ route: 7, plain: 7 });
    await prisma.portalUser.update({ where: { id: ids.org2 }, data: { inactive: true } });
    expect(await totals(false, word)).toEqual({ route: 6, plain: 6 });
    expect(await totals(true, word)).toEqual({ route: 2, plain: 2 });
    await prisma.portalUser.delete({ where: { id: ids.org3 } });
    expect(await totals(false, word)).toEqual({ route: 5, plain: 5 });
    const elsewhere = await totals(false, 'elsewhere');
    expect(elsewhere.route).toBe(elsewhere.plain);
  });

  it('counts row by row beside an exclusion or a site, with the same answer', async () => {
    const res = await caller(api.app)(
      admin,
      'GET',
      `/rest/secure/user_management/users?filter=${word}&filterType=OR&excludeSites=${siteCode}&size=50`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { totalElements: number }).totalElements).toBe(3);
  });
});

describe('a filter matching many users, sorted by an indexed field', () => {
  it('reads the pages a plain ordered query reads, and a walk too short comes back short', async () => {
    const many = `um${crypto.randomBytes(3).toString('hex')}`;
    // Last names that sort after every other user's, so a walk from the start must pass all of those first.
    await prisma.portalUser.createMany({
      data: Array.from({ length: 60 }, (_, i) => ({
        username: `${word}-many-${i}`,
        firstName: `F${String(59 - i).padStart(2, '0')}`,
        lastName: `Zz${many}${String(i).padStart(2, '0')}`,
        email: `many.${i}.${many}@total.portal.test`.replace(many, 'x'),
        organizationName: `${many} Org`,
        phoneNumber: '555-0100',
      })),
    });
    const column = { 'person.lastName': 'lastName', 'person.firstName': 'firstName', 'person.email': 'email' };
    /** The ids of one page as a plain ordered query reads them. */
    const expected = async (field: keyof typeof column, dir: 'asc' | 'desc', offset: number) =>
      (
        await prisma.$queryRawUnsafe<{ id: number }[]>(
          `SELECT id FROM "PortalUser" WHERE NOT inactive AND lower("organizationName") LIKE $1
           ORDER BY "${column[field]}" ${dir}, id ${dir} LIMIT 25 OFFSET ${offset}`,
          `%${many}%`,
        )
      ).map((r) => r.id);
    for (const field of Object.keys(column) as Array<keyof typeof column>) {
      for (const [page, dir, offset] of [
        [1, 'asc', 0],
        [2, 'asc', 25],
        [3, 'asc', 50], // the last page, read from the other end
        [1, 'desc', 0],
      ] as const) {
        const res = await caller(api.app)(
          admin,
          'GET',
          `/rest/secure/user_management/users?filter=${many}&filterType=OR&page=${page}&sort=${field},${dir}`,
        );
        expect(res.statusCode, res.body).toBe(200);
        const got = res.json() as { totalElements: number; content: Array<{ id: number }> };
        expect(got.totalElements, `${field} ${dir} page ${page}`).toBe(60);
        expect(
          got.content.map((r) => r.id),
          `${field} ${dir} page ${page}`,
        ).toEqual(await expected(field, dir, offset));
      }
    }

    // The walk itself: over the whole tab (and more, should other tests add users) it holds the page; over the
    // users before the matches, nothing.
    const run = async (sql: Prisma.Sql) =>
      (await prisma.$queryRawUnsafe<{ id: number }[]>(sql.text, ...sql.values)).map((r) => r.id);
    const walk = usersListSql(false, { page: 1, size: 25, filter: many }, 'person.lastName', 'asc', {}, 60).walk!;
    const [before] = await prisma.$queryRawUnsafe<{ n: number; all: number }[]>(
      `SELECT count(*) FILTER (WHERE "lastName" < 'Zz${many}')::int AS n, count(*)::int AS "all"
       FROM "PortalUser" WHERE NOT inactive`,
    );
    expect(await run(walk(before!.all + 1000))).toEqual(await expected('person.lastName', 'asc', 0));
    expect(await run(walk(before!.n))).toEqual([]);
  });
});

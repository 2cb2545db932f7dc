/**
 * GET /rest/secure/user_management/users (000 §2 Users list, §7, §9) against real PostgreSQL: the Active and
 * Inactive tabs (`inactive`), paging, the default and asked sort, the OR wildcard over each of the spec's
 * fields (person first and last name, email, organization, phone; the current access records' site codes and
 * LAO codes), 403 without READ_USERS and 422 for a bad page, size, sort or filter.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { UserListRow } from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import { type Session, caller, signIn, startApi, type TestApi } from './harness';

let api: TestApi;
let app: FastifyInstance;
let prisma: PrismaClient;
let admin: Session;

/** Every row this file creates carries `tag` in its email, so the filter `tag` selects exactly them. */
const tag = `ul${crypto.randomBytes(3).toString('hex')}`;
// Hyphens keep the codes from matching inside the names, which carry the tag too.
const siteCode = `SITE-${tag}`.toUpperCase();
const laoCode = `LAO-${tag}`.toUpperCase();
const ACTIVE = 12;
const url = (query: string) => `/rest/secure/user_management/users?${query}`;
const get = (s: Session, query: string) => caller(app)(s, 'GET', url(query));
const rows = async (query: string): Promise<UserListRow[]> => {
  const res = await get(admin, query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().content;
};

beforeAll(async () => {
  api = await startApi();
  ({ app, prisma } = api);
  await prisma.site.create({ data: { siteCode, siteName: `Site ${tag}`, siteType: 'AO' } });
  // An LAO is listed as an AO too (the seed's sites, 000 §7 sites): tests reading the public list see it so,
  // also while they run beside this file, so both rows are written by one statement.
  await prisma.site.createMany({
    data: [
      { siteCode: `${laoCode}S`, siteName: `Lead ${tag}`, siteType: 'LAO', laoCode },
      { siteCode: `${laoCode}S`, siteName: `Lead ${tag}`, siteType: 'AO' },
    ],
  });
  // Names sort differently by first and last name: first names run a..l, last names l..a.
  for (let i = 0; i < ACTIVE + 3; i++) {
    const letter = String.fromCharCode(97 + (i % ACTIVE));
    const user = await prisma.portalUser.create({
      data: {
        username: `${tag}${i}`,
        firstName: `F${letter}${tag}`,
        lastName: `L${String.fromCharCode(97 + ACTIVE - 1 - (i % ACTIVE))}${tag}`,
        email: `${tag}.${i}@list.portal.test`,
        organizationName: i === 1 ? `Org ${tag} Unique` : 'Clinic',
        phoneNumber: i === 2 ? '555-0142-77' : '555-0100',
        inactive: i >= ACTIVE,
      },
    });
    if (i === 3) {
      await prisma.userAccess.create({
        data: {
          portalUserId: user.id,
          roleName: 'Site Staff',
          siteCodes: [siteCode],
          laoIds: [laoCode],
          createdBy: 'test',
          lastModifiedBy: 'test',
        },
      });
    }
  }
  admin = await signIn(app, 'admin');
});

afterAll(async () => {
  await prisma?.portalUser.deleteMany({ where: { username: { startsWith: tag } } });
  await prisma?.site.deleteMany({ where: { siteName: { contains: tag } } });
  await api?.close();
});

describe('GET users: tabs, paging and sorting (000 §2 Users list, §7, §9)', () => {
  it('lists the Active tab by default, 25 a page, sorted by person.lastName ascending', async () => {
    const res = await get(admin, `filter=${tag}`);
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page).toMatchObject({
      totalElements: ACTIVE,
      numberOfElements: ACTIVE,
      size: 25,
      number: 1,
      totalPages: 1,
      first: true,
      last: true,
      sort: 'person.lastName,asc',
    });
    const lastNames = page.content.map((r: UserListRow) => r.lastName);
    expect(lastNames).toEqual([...lastNames].sort());
    expect(page.content.every((r: UserListRow) => !r.inactive)).toBe(true);
    expect(page.content[0]).toEqual({
      id: expect.any(Number),
      uuid: null,
      username: expect.stringContaining(tag),
      firstName: expect.any(String),
      lastName: `La${tag}`,
      email: expect.stringContaining(tag),
      organizationName: expect.any(String),
      phoneNumber: expect.any(String),
      phoneExtension: '',
      inactive: false,
      siteCodes: [],
      laoIds: [],
      accessEndDate: null,
      accessEndsSoon: false,
    });
  });

  it('answers the Inactive tab with inactive=true', async () => {
    const page = (await get(admin, `inactive=true&filter=${tag}`)).json();
    expect(page.totalElements).toBe(3);
    expect(page.content.every((r: UserListRow) => r.inactive)).toBe(true);
  });

  it('pages on the server', async () => {
    const res = await get(admin, `filter=${tag}&page=2&size=10`);
    expect(res.json()).toMatchObject({
      totalElements: ACTIVE,
      numberOfElements: 2,
      size: 10,
      number: 2,
      totalPages: 2,
      first: false,
      last: true,
    });
    const first = await rows(`filter=${tag}&page=1&size=10`);
    const second: UserListRow[] = res.json().content;
    expect(new Set([...first, ...second].map((r) => r.id)).size).toBe(ACTIVE);
  });

  it('sorts by each of the spec keys in either direction', async () => {
    const desc = await rows(`filter=${tag}&sort=person.firstName,desc`);
    const firstNames = desc.map((r) => r.firstName);
    expect(firstNames).toEqual([...firstNames].sort().reverse());
    expect(firstNames[0]).toBe(`Fl${tag}`);
    const asc = await rows(`filter=${tag}&sort=person.lastName,asc`);
    expect(asc.map((r) => r.lastName)).toEqual(desc.map((r) => r.lastName));
    for (const key of ['email', 'organizationName', 'phoneNumber'] as const) {
      const sorted = await rows(`filter=${tag}&sort=person.${key},asc`);
      const values = sorted.map((r) => r[key]);
      expect(values).toEqual([...values].sort());
    }
  });
});

describe('GET users: the OR wildcard filter (000 §7)', () => {
  it.each([
    ['person.firstName', `Fc${tag}`.toLowerCase(), (r: UserListRow) => r.firstName === `Fc${tag}`],
    ['person.lastName', `LA${tag}`.toUpperCase(), (r: UserListRow) => r.lastName === `La${tag}`],
    ['person.email', `${tag}.5@`, (r: UserListRow) => r.email === `${tag}.5@list.portal.test`],
    ['person.organizationName', `${tag} unique`, (r: UserListRow) => r.organizationName === `Org ${tag} Unique`],
    ['person.phoneNumber', '0142-7', (r: UserListRow) => r.phoneNumber === '555-0142-77'],
    ['sites.siteCode', siteCode.toLowerCase(), (r: UserListRow) => r.siteCodes.includes(siteCode)],
    ['sites.otherIdentifier', laoCode, (r: UserListRow) => r.laoIds.includes(laoCode)],
  ])('matches inside %s, case-insensitively', async (_field, filter, expected) => {
    const found = await rows(`filter=${encodeURIComponent(filter)}`);
    expect(found).toHaveLength(1);
    expect(expected(found[0]!)).toBe(true);
  });

  it('takes % and _ literally', async () => {
    expect(await rows(`filter=${encodeURIComponent(`${tag}%`)}`)).toEqual([]);
    expect((await rows(`filter=${encodeURIComponent(`${tag}_`)}`)).length).toBe(0);
  });
});

describe('GET users: permission and 422 (000 §7, §8)', () => {
  it('refuses a user without READ_USERS (403)', async () => {
    const user = await signIn(app, 'user');
    const res = await get(user, '');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'You are not authorized to view this page' });
    expect((await get(await signIn(app, 'readonly'), `filter=${tag}`)).statusCode).toBe(200);
  });

  it.each([
    ['page', 'page=0'],
    ['page', 'page=x'],
    ['size', 'size=5'],
    ['size', 'size=201'],
    ['sort', 'sort=password,asc'],
    ['sort', 'sort=person.lastName,up'],
    ['inactive', 'inactive=yes'],
    ['filter', 'filter=a%00b'],
  ])('answers 422 with fieldErrors.%s for %s', async (field, query) => {
    const res = await get(admin, query);
    expect(res.statusCode).toBe(422);
    expect(res.json().fieldErrors).toHaveProperty(field);
  });
});

/**
 * GET /rest/secure/user_management/users beyond one screen's page (000 §7, §9): the exclusions
 * `excludeRoles`, `excludeAssociations` and `excludeSites` (a user holding any of the named portal roles,
 * study roles of current records or sites is left out; an LAO is named by its site code), their 422s, and
 * the load-all call (page 1, size 1,000,000) answered, streamed in chunks, at 100,000 users.
 */
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type UserListRow, USERS_LOAD_ALL_SIZE } from '@portal/contract';
import pg from 'pg';
import { poolConfigFromUrl } from '@portal/db';
import { stackEnv } from './fixtures';
import { type Session, caller, signIn, startApi, type TestApi } from './harness';

let api: TestApi;
let admin: Session;

/** Every user this file creates carries `tag` in its names and email, so the filter `tag` selects them. */
const tag = `la${crypto.randomBytes(3).toString('hex')}`;
const siteCode = `AOX-${tag}`.toUpperCase();
const laoSite = `LSX-${tag}`.toUpperCase();
const laoCode = `LAX-${tag}`.toUpperCase();
const MANY = 100_000;
const url = (query: string) => `/rest/secure/user_management/users?filter=${tag}&${query}`;

beforeAll(async () => {
  api = await startApi();
  admin = await signIn(api.app, 'admin');
});

afterAll(async () => {
  await api?.prisma.$executeRawUnsafe(`DELETE FROM "PortalUser" WHERE "username" LIKE '${tag}%'`);
  await api?.prisma.site.deleteMany({ where: { siteCode: { in: [siteCode, laoSite] } } });
  await api?.close();
});

describe('the exclusions (000 §7)', () => {
  it('leave out a user holding any named portal role, study role or site', async () => {
    await api.prisma.site.create({ data: { siteCode, siteName: `AO ${tag}`, siteType: 'AO' } });
    // An LAO is listed as an AO too (the seed's sites): the public sites list stays as reference.test.ts expects,
    // also while that file reads it beside this one, so both rows are written by one statement.
    await api.prisma.site.createMany({
      data: [
        { siteCode: laoSite, siteName: `LAO ${tag}`, siteType: 'LAO', laoCode },
        { siteCode: laoSite, siteName: `LAO ${tag}`, siteType: 'AO' },
      ],
    });
    const role = await api.prisma.portalRole.findUniqueOrThrow({ where: { description: 'Password Self-Service' } });
    const make = async (name: string, access?: { roleName: string; siteCodes?: string[]; laoIds?: string[] }) =>
      api.prisma.portalUser.create({
        data: {
          username: `${tag}${name}`,
          firstName: name,
          lastName: `L${tag}`,
          email: `${tag}.${name}@excl.portal.test`,
          ...(name === 'withrole' ? { portalRoles: { create: { portalRoleId: role.id } } } : {}),
          ...(access ? { userAccesses: { create: { ...access, createdBy: 'test', lastModifiedBy: 'test' } } } : {}),
        },
      });
    await make('plain');
    await make('withrole');
    await make('dm', { roleName: 'Data Manager' });
    await make('atao', { roleName: 'Site Staff', siteCodes: [siteCode] });
    await make('atlao', { roleName: 'Site Staff', laoIds: [laoCode] });
    // An inactive record does not count.
    const old = await make('oldao');
    await api.prisma.userAccess.create({
      data: {
        portalUserId: old.id,
        roleName: 'Data Manager',
        siteCodes: [siteCode],
        inactive: true,
        createdBy: 'test',
        lastModifiedBy: 'test',
      },
    });
    const names = async (query: string) => {
      const res = await caller(api.app)(admin, 'GET', url(`sort=person.firstName,asc&${query}`));
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().content as UserListRow[]).map((r) => r.firstName);
    };
    const everyone = ['atao', 'atlao', 'dm', 'oldao', 'plain', 'withrole'];
    expect(await names('')).toEqual(everyone);
    expect(await names('excludeRoles=Password%20Self-Service')).toEqual(everyone.filter((n) => n !== 'withrole'));
    expect(await names('excludeAssociations=Data%20Manager,%20Nothing')).toEqual(everyone.filter((n) => n !== 'dm'));
    expect(await names(`excludeSites=${siteCode}`)).toEqual(everyone.filter((n) => n !== 'atao'));
    expect(await names(`excludeSites=${laoSite}`)).toEqual(everyone.filter((n) => n !== 'atlao'));
    expect(
      await names(
        `excludeRoles=Password%20Self-Service&excludeAssociations=Data%20Manager&excludeSites=${siteCode},${laoSite}`,
      ),
    ).toEqual(['oldao', 'plain']);
    const res = await caller(api.app)(admin, 'GET', url(`excludeSites=${siteCode},${laoSite}`));
    expect(res.json().totalElements).toBe(4);
  });

  it('answer 422 for a bad list, size or load-all page', async () => {
    const call = (query: string) => caller(api.app)(admin, 'GET', url(query));
    const tooMany = Array.from({ length: 101 }, (_, i) => `S${i}`).join(',');
    for (const [query, key] of [
      [`excludeSites=${tooMany}`, 'excludeSites'],
      [`excludeSites=${'X'.repeat(33)}`, 'excludeSites'],
      [`excludeAssociations=${'r'.repeat(129)}`, 'excludeAssociations'],
      ['size=300', 'size'],
      [`size=${USERS_LOAD_ALL_SIZE - 1}`, 'size'],
      [`page=2&size=${USERS_LOAD_ALL_SIZE}`, 'page'],
    ] as const) {
      const res = await call(query);
      expect(res.statusCode, query).toBe(422);
      expect(Object.keys(res.json().fieldErrors), query).toEqual([key]);
    }
  });
});

describe('the load-all call (000 §9: page 1, size 1,000,000)', () => {
  it('answers 100,000 users as one streamed page', async () => {
    // One statement on one connection, whose GIN indexes take the trigram entries in bulk (their pending list,
    // merged later by vacuum) instead of one index update per row.
    const db = new pg.Client(poolConfigFromUrl(stackEnv().DATABASE_URL!));
    await db.connect();
    try {
      await db.query(`SET gin_pending_list_limit = '512MB'`);
      await db.query(`
        INSERT INTO "PortalUser" ("username", "firstName", "lastName", "email", "updatedAt")
        SELECT '${tag}' || g, 'F' || g, 'L' || (g % 1000), '${tag}' || g || '@t.t', now()
        FROM generate_series(1, ${MANY}) g`);
    } finally {
      await db.end();
    }
    // Other files add, deactivate and remove users while this one reads, so the answer is held between the
    // active users read before the call and those read after it: every user active throughout is listed,
    // and nobody listed was not active at one of the two reads (on a quiet database both are the same set).
    const activeIds = async () =>
      new Set(
        (await api.prisma.portalUser.findMany({ where: { inactive: false }, select: { id: true } })).map((u) => u.id),
      );
    const activeBefore = await activeIds();
    expect(activeBefore.size).toBeGreaterThan(MANY);
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = api.app.server.address() as AddressInfo;
    const res = await fetch(
      `http://127.0.0.1:${port}/rest/secure/user_management/users?page=1&size=${USERS_LOAD_ALL_SIZE}`,
      { headers: { cookie: admin.cookie, 'x-xsrf-token': admin.xsrf } },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    // Streamed: no length known up front, the body arrives in chunks.
    expect(res.headers.get('content-length')).toBeNull();
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    const chunks: string[] = [];
    const decoder = new TextDecoder();
    for await (const chunk of res.body!) chunks.push(decoder.decode(chunk, { stream: true }));
    expect(chunks.length).toBeGreaterThan(10);
    const page = JSON.parse(chunks.join(''));
    const activeAfter = await activeIds();
    const throughout = [...activeBefore].filter((id) => activeAfter.has(id));
    const atEither = new Set([...activeBefore, ...activeAfter]);
    const content = page.content as UserListRow[];
    expect(page.totalElements).toBeGreaterThanOrEqual(throughout.length);
    expect(page.totalElements).toBeLessThanOrEqual(atEither.size);
    expect(page).toMatchObject({
      numberOfElements: content.length,
      size: USERS_LOAD_ALL_SIZE,
      number: 1,
      totalPages: 1,
      first: true,
      last: true,
      sort: 'person.lastName,asc',
    });
    const listed = new Set(content.map((r) => r.id));
    expect(listed.size).toBe(content.length);
    expect(throughout.filter((id) => !listed.has(id))).toEqual([]);
    expect(content.filter((r) => !atEither.has(r.id)).map((r) => r.username)).toEqual([]);
    expect(content.filter((r) => r.username.startsWith(tag) && r.email.endsWith('@t.t'))).toHaveLength(MANY);
    // The order asked (the default): last name, then id.
    const sorted = content.every(
      (r, i) =>
        i === 0 ||
        content[i - 1]!.lastName < r.lastName ||
        (content[i - 1]!.lastName === r.lastName && content[i - 1]!.id < r.id),
    );
    expect(sorted).toBe(true);
  });
});

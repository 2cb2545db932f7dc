/**
 * GET /rest/secure/user_management/users sorted by the two site columns of the Users list (000 §2: 'AO Member
 * ID(s)', 'LAO Affiliation(s)'; server-side sorting): `sites.siteCode` and `sites.otherIdentifier` (000 §7's
 * names of the same values in the filter). A user's key is the sorted list of the codes of their current access
 * records (inactive records do not count), compared code by code; a user without any sorts first ascending and
 * last descending; equal keys keep id order in the asked direction.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserListRow } from '@portal/contract';
import { type Session, caller, signIn, startApi, type TestApi } from './harness';

let api: TestApi;
let admin: Session;
const tag = `ss${crypto.randomBytes(3).toString('hex')}`;
const code = (c: string) => `${c}-${tag}`.toUpperCase();

/** Each user's current records (siteCodes, laoIds); u3 also has an inactive record that must not count. */
const USERS: Record<string, { siteCodes: string[]; laoIds: string[] }[]> = {
  u1: [{ siteCodes: [code('C'), code('B')], laoIds: [code('Z')] }],
  u2: [{ siteCodes: [code('A')], laoIds: [] }],
  u3: [{ siteCodes: [], laoIds: [code('Y')] }],
  u4: [],
  u5: [
    { siteCodes: [code('D')], laoIds: [code('Z')] },
    { siteCodes: [code('A')], laoIds: [code('X')] },
  ],
};

beforeAll(async () => {
  api = await startApi();
  admin = await signIn(api.app, 'admin');
  for (const [name, records] of Object.entries(USERS)) {
    const user = await api.prisma.portalUser.create({
      data: {
        username: `${tag}${name}`,
        firstName: name,
        lastName: `L${tag}`,
        email: `${tag}.${name}@sort.portal.test`,
      },
    });
    const made = records.map((r) => ({ ...r, roleName: 'Site Staff', createdBy: 'test', lastModifiedBy: 'test' }));
    if (name === 'u3') made.push({ ...made[0]!, siteCodes: [code('0')], laoIds: [code('0')], inactive: true } as never);
    for (const data of made) await api.prisma.userAccess.create({ data: { ...data, portalUserId: user.id } });
  }
});

afterAll(async () => {
  await api?.prisma.portalUser.deleteMany({ where: { username: { startsWith: tag } } });
  await api?.close();
});

const order = async (sort: string) => {
  const res = await caller(api.app)(admin, 'GET', `/rest/secure/user_management/users?filter=${tag}&sort=${sort}`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().sort).toBe(sort);
  return (res.json().content as UserListRow[]).map((r) => r.firstName);
};

describe('GET users sorted by the site columns (000 §2)', () => {
  it('sorts by AO Member ID(s) in either direction', async () => {
    expect(await order('sites.siteCode,asc')).toEqual(['u3', 'u4', 'u2', 'u5', 'u1']);
    expect(await order('sites.siteCode,desc')).toEqual(['u1', 'u5', 'u2', 'u4', 'u3']);
  });

  it('sorts by LAO Affiliation(s) in either direction', async () => {
    expect(await order('sites.otherIdentifier,asc')).toEqual(['u2', 'u4', 'u5', 'u3', 'u1']);
    expect(await order('sites.otherIdentifier,desc')).toEqual(['u1', 'u3', 'u5', 'u4', 'u2']);
  });

  it('re-sorts a user at once when their records change (made inactive, active again, deleted, added)', async () => {
    const u2 = await api.prisma.portalUser.findUniqueOrThrow({ where: { username: `${tag}u2` } });
    const before = ['u3', 'u4', 'u2', 'u5', 'u1'];
    // Without a current site, u2 sorts with the users without any, by id.
    const withoutSites = ['u2', 'u3', 'u4', 'u5', 'u1'];
    await api.prisma.userAccess.updateMany({ where: { portalUserId: u2.id }, data: { inactive: true } });
    expect(await order('sites.siteCode,asc')).toEqual(withoutSites);
    await api.prisma.userAccess.updateMany({ where: { portalUserId: u2.id }, data: { inactive: false } });
    expect(await order('sites.siteCode,asc')).toEqual(before);
    await api.prisma.userAccess.deleteMany({ where: { portalUserId: u2.id } });
    expect(await order('sites.siteCode,asc')).toEqual(withoutSites);
    await api.prisma.userAccess.create({
      data: {
        portalUserId: u2.id,
        siteCodes: [code('A')],
        laoIds: [],
        roleName: 'Site Staff',
        createdBy: 'test',
        lastModifiedBy: 'test',
      },
    });
    expect(await order('sites.siteCode,asc')).toEqual(before);
  });
});

/**
 * User access records answer the full shape of 000 §3 (entity, formId, sites beside siteCodes and laoIds)
 * on every read: user_access/{id}, /{id}/{revisionNo}, /user/{portalUserId}, the own /user, the profile and
 * the user detail. `sites` is the API form of the AO and LAO lists (an LAO under its own site code, its LAO
 * code in otherIdentifier); `formId` is the access-change request whose review wrote the version.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type UserAccess, UserAccessSchema } from '@portal/contract';
import { createTestUser } from './auth-helpers';
import { type TestApi, caller, signIn, startApi } from './harness';

const BASE = '/rest/secure/user_access';
let api: TestApi;

beforeAll(async () => {
  api = await startApi();
});

afterAll(async () => {
  await api?.close();
});

describe('the user access record (000 §3)', () => {
  it('carries entity, formId and sites on every read', async () => {
    const call = caller(api.app);
    const reviewer = await signIn(api.app, 'reviewer');
    const u = await createTestUser(api, 'uashape');
    const role = await api.prisma.studyRole.findFirstOrThrow({
      where: { inactive: false, allowAOs: true, allowLAOs: true, studyRequired: false },
      include: { systems: true },
    });
    const lao = await api.prisma.site.findFirstOrThrow({ where: { siteType: 'LAO', laoCode: { not: null } } });
    const ao = await api.prisma.site.findFirstOrThrow({ where: { siteType: 'AO', siteCode: { not: lao.siteCode } } });
    const created = await call(reviewer, 'POST', BASE, {
      portalUserId: u.user.id,
      roleName: role.roleName,
      siteCodes: [ao.siteCode],
      laoIds: [lao.laoCode],
      studyNames: [],
      systemAccessIds: role.systems.map((s) => s.systemId),
    });
    expect(created.statusCode, created.body).toBe(200);
    const record = created.json<UserAccess>();
    const sites = [
      { type: 'AO', siteCode: ao.siteCode, otherIdentifier: null },
      { type: 'LAO', siteCode: lao.siteCode, otherIdentifier: lao.laoCode },
    ];
    expect(UserAccessSchema.strict().parse(record)).toMatchObject({ entity: 'PortalUser', formId: null, sites });

    // A version a review wrote names its request.
    await api.prisma.userAccess.update({ where: { id: record.id }, data: { sourceRequestId: 4242 } });
    const expected = { id: record.id, entity: 'PortalUser', formId: 4242, sites };
    expect((await call(reviewer, 'GET', `${BASE}/${record.id}`)).json()).toMatchObject(expected);
    expect((await call(reviewer, 'GET', `${BASE}/${record.id}/1`)).json()).toMatchObject(expected);
    expect((await call(reviewer, 'GET', `${BASE}/user/${u.user.id}`)).json().content).toMatchObject([expected]);
    const all = (await call(reviewer, 'GET', BASE)).json() as UserAccess[];
    expect(all.find((r) => r.id === record.id)).toMatchObject(expected);
    const detail = await call(reviewer, 'GET', `/rest/secure/user_management/user/${u.user.id}`);
    expect(detail.json().userAccesses).toMatchObject([expected]);

    const own = await signIn(api.app, u.username, u.password);
    expect((await call(own, 'GET', `${BASE}/user`)).json().content).toMatchObject([expected]);
    const profile = (await call(own, 'GET', '/rest/secure/user_profile')).json();
    expect(profile.userAccesses).toMatchObject([expected]);
    for (const r of [...profile.userAccesses, ...all.slice(0, 50)]) UserAccessSchema.strict().parse(r);
  });
});

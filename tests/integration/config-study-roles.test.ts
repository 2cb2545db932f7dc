/**
 * Study roles (001 §7 Study roles; §3, §4, §5, §8) against real PostgreSQL: every call with its permission
 * (READ_USERS to read, ADMIN to change), the rules held by the server with the spec's messages, 304s, the
 * in-use lists (users, pending users, outstanding requests) and the deactivation check, the public list kept
 * in step, and one audit row per change.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_MESSAGES, MESSAGES } from '@portal/contract';
import { auditRowsOf, createOutstandingRequest, createTestUser, unique, useConfigApi } from './config-support';

const BASE = '/rest/secure/system_mgmt/study_role';
const { api, call, admin, readonly, user } = useConfigApi();
let fixedId: number;
let edcId: number;

beforeAll(async () => {
  fixedId = (await api.prisma.systemAccess.findFirstOrThrow({ where: { fixed: true } })).id;
  edcId = (await api.prisma.systemAccess.findFirstOrThrow({ where: { systemName: 'Electronic Data Capture' } })).id;
});

const body = (over: Record<string, unknown> = {}) => ({
  roleName: unique('Trial Nurse'),
  description: 'Administers study treatment at a site.',
  siteRequired: true,
  studyRequired: true,
  allowAOs: true,
  allowLAOs: false,
  systemAccessIds: [fixedId, edcId],
  ...over,
});

describe('study roles: permissions', () => {
  it('needs READ_USERS to read and ADMIN to change', async () => {
    expect((await call(null, 'GET', `${BASE}/`)).statusCode).toBe(401);
    for (const url of [
      `${BASE}/`,
      `${BASE}/1`,
      `${BASE}/1/inUseByUser`,
      `${BASE}/1/inUseByPendingUser`,
      `${BASE}/1/inUseByOutstandingUserAccessMod`,
    ]) {
      expect((await call(user, 'GET', url)).statusCode, url).toBe(403);
    }
    expect((await call(readonly, 'GET', `${BASE}/`)).statusCode).toBe(200);
    expect((await call(readonly, 'POST', `${BASE}/`, body())).statusCode).toBe(403);
    expect((await call(readonly, 'PUT', `${BASE}/1`, body())).statusCode).toBe(403);
    expect((await call(readonly, 'PUT', `${BASE}/1/deactivate`)).statusCode).toBe(403);
    expect((await call(readonly, 'PUT', `${BASE}/1/activate`)).statusCode).toBe(403);
  });
});

describe('study roles: rules held by the server (001 §5)', () => {
  it('answers 422 with the spec keys, reasons and sentences', async () => {
    const empty = await call(admin, 'POST', `${BASE}/`, {});
    expect(empty.statusCode).toBe(422);
    expect(empty.json().fieldErrors).toEqual({
      roleName: ['required'],
      description: ['required'],
      systemAccessIds: [CONFIG_MESSAGES.studyRoles.atLeastOneSystem],
    });
    const long = await call(
      admin,
      'POST',
      `${BASE}/`,
      body({ roleName: 'r'.repeat(129), description: 'd'.repeat(1025) }),
    );
    expect(long.json().fieldErrors).toEqual({ roleName: ['size'], description: ['size'] });
    const noSites = await call(admin, 'POST', `${BASE}/`, body({ allowAOs: false, allowLAOs: false }));
    expect(noSites.statusCode).toBe(422);
    expect(noSites.json().fieldErrors).toEqual({
      siteRequired: ['You must allow user-selection of AOs or LAOs in order to require that the user provide them'],
    });
    const noFixed = await call(admin, 'POST', `${BASE}/`, body({ systemAccessIds: [edcId, 999999] }));
    expect(noFixed.json().fieldErrors).toEqual({
      systemAccessIds: ['nonexistent', MESSAGES.access.fixedSystemRequired],
    });
    const taken = await call(admin, 'POST', `${BASE}/`, body({ roleName: 'data manager' }));
    expect(taken.json().fieldErrors).toEqual({ roleName: ['unique'] });
    const wrongType = await call(admin, 'POST', `${BASE}/`, body({ siteRequired: 'yes', systemAccessIds: ['a'] }));
    expect(wrongType.json().fieldErrors).toEqual({ siteRequired: ['invalid'], 'systemAccessIds[0]': ['invalid'] });
  });
});

describe('study roles: create, read, update, in use, deactivate', () => {
  it('creates (allow flags may come nested under allowSites), lists with defaultApplicationNames and reads', async () => {
    const { allowAOs: _a, allowLAOs: _l, ...rest } = body();
    const created = await call(admin, 'POST', `${BASE}/`, {
      ...rest,
      allowSites: { allowAOs: false, allowLAOs: true },
    });
    expect(created.statusCode).toBe(200);
    const role = created.json();
    expect(role).toMatchObject({
      roleName: rest.roleName,
      allowAOs: false,
      allowLAOs: true,
      systemAccessIds: [fixedId, edcId].sort((a, b) => a - b),
      defaultApplicationNames: ['Portal Gateway', 'Electronic Data Capture'],
      inactive: false,
      sort: 0,
    });
    const list = (await call(readonly, 'GET', `${BASE}/`)).json();
    expect(list).toContainEqual(role);
    expect((await call(readonly, 'GET', `${BASE}/${role.id}`)).json()).toEqual(role);
    const missing = await call(readonly, 'GET', `${BASE}/999999`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: CONFIG_MESSAGES.studyRoles.load });
    const publicList = await api.app.inject({ method: 'GET', url: '/rest/public/user_registration/study_roles/' });
    expect(publicList.json().map((r: { id: number }) => r.id)).toContain(role.id);
    expect(await auditRowsOf(api.prisma, 'StudyRole', role.id)).toMatchObject([
      { action: 'CREATED', actorUsername: 'admin', after: role },
    ]);
  });

  it('updates (304 when unchanged), keeps names of roles in use, and checks use before deactivation', async () => {
    const input = body();
    const role = (await call(admin, 'POST', `${BASE}/`, input)).json();
    expect((await call(admin, 'PUT', `${BASE}/${role.id}`, input)).statusCode).toBe(304);
    const changed = await call(admin, 'PUT', `${BASE}/${role.id}`, {
      ...input,
      description: 'Gives study treatment.',
      studyRequired: false,
      systemAccessIds: [fixedId],
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      description: 'Gives study treatment.',
      studyRequired: false,
      systemAccessIds: [fixedId],
    });
    const updated = changed.json();

    for (const what of ['inUseByUser', 'inUseByPendingUser', 'inUseByOutstandingUserAccessMod']) {
      const res = await call(readonly, 'GET', `${BASE}/${role.id}/${what}`);
      expect(res.statusCode, what).toBe(200);
      expect(res.json(), what).toEqual([]);
    }
    const holder = await createTestUser(api.prisma, 'study role');
    await api.prisma.userAccess.create({
      data: {
        portalUserId: holder.id,
        roleName: role.roleName,
        systemAccessIds: [fixedId],
        createdBy: 't',
        lastModifiedBy: 't',
      },
    });
    expect((await call(readonly, 'GET', `${BASE}/${role.id}/inUseByUser`)).json()).toEqual([
      expect.objectContaining({ id: holder.id, email: holder.email }),
    ]);
    const rename = await call(admin, 'PUT', `${BASE}/${role.id}`, { ...updated, roleName: `${role.roleName} X` });
    expect(rename.json().fieldErrors).toEqual({
      roleName: ['The name of a study-role that is in use cannot be changed.'],
    });

    const request = await createOutstandingRequest(api.prisma, holder.id, {
      roleName: role.roleName,
      systemAccessIds: [fixedId],
    });
    const outstanding = (await call(readonly, 'GET', `${BASE}/${role.id}/inUseByOutstandingUserAccessMod`)).json();
    expect(outstanding).toEqual([
      expect.objectContaining({ id: request.id, requestStatus: 'PENDING_REVIEW', email: holder.email }),
    ]);
    const blocked = await call(admin, 'PUT', `${BASE}/${role.id}/deactivate`);
    expect(blocked.statusCode).toBe(422);
    expect(blocked.json().globalErrors).toEqual([
      'This study-role is referenced by 1 outstanding user-access modification request(s).',
    ]);

    await api.prisma.accessModRequest.update({ where: { id: request.id }, data: { requestStatus: 'REJECTED' } });
    const off = await call(admin, 'PUT', `${BASE}/${role.id}/deactivate`);
    expect(off.statusCode).toBe(200);
    expect(off.json().inactive).toBe(true);
    expect((await call(admin, 'PUT', `${BASE}/${role.id}/deactivate/`)).statusCode).toBe(304);
    const publicList = await api.app.inject({ method: 'GET', url: '/rest/public/user_registration/study_roles/' });
    expect(publicList.json().map((r: { id: number }) => r.id)).not.toContain(role.id);
    expect((await call(admin, 'PUT', `${BASE}/${role.id}/activate`)).statusCode).toBe(200);
    expect((await call(admin, 'PUT', `${BASE}/${role.id}/activate`)).statusCode).toBe(304);
    expect((await call(admin, 'PUT', `${BASE}/999999/activate`)).statusCode).toBe(404);

    const rows = await auditRowsOf(api.prisma, 'StudyRole', role.id);
    expect(rows.map((r) => r.action)).toEqual(['CREATED', 'UPDATED', 'DEACTIVATED', 'ACTIVATED']);
    expect(rows[1]).toMatchObject({
      before: { studyRequired: true },
      after: { studyRequired: false, systemAccessIds: [fixedId] },
    });
  });
});

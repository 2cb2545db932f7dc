/**
 * Systems (001 §7 Systems; §3, §4, §5, §8) against real PostgreSQL: every call with its permission, names
 * unique among active systems ('There is already an active system with this name.'), the fixed system kept,
 * 304 for no change and for 'already in an active/inactive state', the in-use lists and the deactivation
 * check, the public list kept in step (new ETag), and one audit row per change.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_MESSAGES } from '@portal/contract';
import { auditRowsOf, createOutstandingRequest, createTestUser, unique, useConfigApi } from './config-support';

const BASE = '/rest/secure/system_mgmt/system_access';
const PUBLIC = '/rest/public/user_registration/system_accesses/';
const { api, call, admin, readonly, user } = useConfigApi();
let fixedId: number;

beforeAll(async () => {
  fixedId = (await api.prisma.systemAccess.findFirstOrThrow({ where: { fixed: true } })).id;
});

describe('systems: permissions and validation', () => {
  it('needs READ_USERS to read and ADMIN to change', async () => {
    expect((await call(null, 'GET', `${BASE}/`)).statusCode).toBe(401);
    const reads = [
      '',
      '1',
      '1/inUseByStudyRole',
      '1/inUseByUser',
      '1/inUseByPendingUser',
      '1/inUseByOutstandingUserAccessMod',
    ];
    for (const path of reads) expect((await call(user, 'GET', `${BASE}/${path}`)).statusCode, path).toBe(403);
    expect((await call(readonly, 'GET', `${BASE}/`)).statusCode).toBe(200);
    const body = { systemName: unique('Denied'), description: '' };
    expect((await call(readonly, 'POST', `${BASE}/`, body)).statusCode).toBe(403);
    expect((await call(readonly, 'PUT', `${BASE}/1`, body)).statusCode).toBe(403);
    expect((await call(readonly, 'PUT', `${BASE}/1/deactivate/`)).statusCode).toBe(403);
    expect((await call(readonly, 'PUT', `${BASE}/1/activate/`)).statusCode).toBe(403);
  });

  it('answers 422 with the spec keys and messages', async () => {
    const empty = await call(admin, 'POST', `${BASE}/`, {});
    expect(empty.json()).toEqual({ fieldErrors: { systemName: ['required'] }, globalErrors: [] });
    const long = await call(admin, 'POST', `${BASE}/`, { systemName: 's'.repeat(129), description: 'd'.repeat(1025) });
    expect(long.json().fieldErrors).toEqual({ systemName: ['size'], description: ['size'] });
    const taken = await call(admin, 'POST', `${BASE}/`, { systemName: ' portal GATEWAY ' });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().fieldErrors).toEqual({ systemName: ['There is already an active system with this name.'] });
    const rename = await call(admin, 'PUT', `${BASE}/${fixedId}`, { systemName: 'Portal', description: '' });
    expect(rename.json().fieldErrors).toEqual({ systemName: ['The name of the fixed system cannot be changed.'] });
    const off = await call(admin, 'PUT', `${BASE}/${fixedId}/deactivate/`);
    expect(off.json().globalErrors).toEqual(['The fixed system is always selected and cannot be deactivated.']);
  });
});

describe('systems: create, update, in use, activate and deactivate', () => {
  it('creates, lists, reads and updates, with the public list and its ETag following', async () => {
    const before = await api.app.inject({ method: 'GET', url: PUBLIC });
    const name = unique('Imaging Archive');
    const created = await call(admin, 'POST', `${BASE}/`, { systemName: name, description: 'DICOM images.' });
    expect(created.statusCode).toBe(200);
    const system = created.json();
    expect(system).toMatchObject({
      systemName: name,
      description: 'DICOM images.',
      inactive: false,
      sort: 0,
      fixed: false,
    });
    expect((await call(readonly, 'GET', `${BASE}/`)).json()).toContainEqual(system);
    expect((await call(readonly, 'GET', `${BASE}/${system.id}`)).json()).toEqual(system);
    const missing = await call(readonly, 'GET', `${BASE}/999999`);
    expect(missing.json()).toEqual({ message: CONFIG_MESSAGES.systems.load });

    const after = await api.app.inject({
      method: 'GET',
      url: PUBLIC,
      headers: { 'if-none-match': String(before.headers.etag) },
    });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.json().map((s: { id: number }) => s.id)).toContain(system.id);

    expect(
      (await call(admin, 'PUT', `${BASE}/${system.id}`, { systemName: name, description: 'DICOM images.' })).statusCode,
    ).toBe(304);
    const updated = await call(admin, 'PUT', `${BASE}/${system.id}`, { systemName: `${name} 2`, description: '' });
    expect(updated.json()).toMatchObject({ systemName: `${name} 2`, description: '' });
    const clash = await call(admin, 'PUT', `${BASE}/${system.id}`, { systemName: 'Randomization' });
    expect(clash.json().fieldErrors).toEqual({ systemName: [CONFIG_MESSAGES.systems.duplicateName] });
    const rows = await auditRowsOf(api.prisma, 'SystemAccess', system.id);
    expect(rows.map((r) => r.action)).toEqual(['CREATED', 'UPDATED']);
    expect(rows[1]).toMatchObject({ before: { systemName: name }, after: { systemName: `${name} 2` } });
  });

  it('lists what references a system and refuses deactivation while active study roles or requests do', async () => {
    const system = (await call(admin, 'POST', `${BASE}/`, { systemName: unique('Lab Portal') })).json();
    for (const what of ['inUseByStudyRole', 'inUseByUser', 'inUseByPendingUser', 'inUseByOutstandingUserAccessMod']) {
      expect((await call(readonly, 'GET', `${BASE}/${system.id}/${what}`)).json(), what).toEqual([]);
    }
    const role = (
      await call(admin, 'POST', '/rest/secure/system_mgmt/study_role/', {
        roleName: unique('Lab Liaison'),
        description: 'Talks to the lab.',
        systemAccessIds: [fixedId, system.id],
      })
    ).json();
    const holder = await createTestUser(api.prisma, 'system');
    await api.prisma.userAccess.create({
      data: {
        portalUserId: holder.id,
        roleName: role.roleName,
        systemAccessIds: [fixedId, system.id],
        createdBy: 't',
        lastModifiedBy: 't',
      },
    });
    const request = await createOutstandingRequest(api.prisma, holder.id, {
      roleName: role.roleName,
      systemAccessIds: [system.id],
    });
    expect((await call(readonly, 'GET', `${BASE}/${system.id}/inUseByStudyRole`)).json()).toEqual([
      { id: role.id, roleName: role.roleName, inactive: false },
    ]);
    expect((await call(readonly, 'GET', `${BASE}/${system.id}/inUseByUser`)).json()).toEqual([
      expect.objectContaining({ id: holder.id }),
    ]);
    expect((await call(readonly, 'GET', `${BASE}/${system.id}/inUseByOutstandingUserAccessMod`)).json()).toEqual([
      expect.objectContaining({ id: request.id }),
    ]);

    const blocked = await call(admin, 'PUT', `${BASE}/${system.id}/deactivate/`);
    expect(blocked.statusCode).toBe(422);
    expect(blocked.json().globalErrors).toEqual([
      `This system is a default application of 1 active study-role(s): ${role.roleName}.`,
      'This system is referenced by 1 outstanding user-access modification request(s).',
    ]);
    await api.prisma.accessModRequest.update({ where: { id: request.id }, data: { requestStatus: 'APPROVED' } });
    expect((await call(admin, 'PUT', `/rest/secure/system_mgmt/study_role/${role.id}/deactivate`)).statusCode).toBe(
      200,
    );

    const off = await call(admin, 'PUT', `${BASE}/${system.id}/deactivate/`);
    expect(off.statusCode).toBe(200);
    expect(off.json().inactive).toBe(true);
    const again = await call(admin, 'PUT', `${BASE}/${system.id}/deactivate`);
    expect(again.statusCode).toBe(304);
    expect(
      (await api.app.inject({ method: 'GET', url: PUBLIC })).json().map((s: { id: number }) => s.id),
    ).not.toContain(system.id);

    // The name is free again while the system is inactive; activating it then clashes.
    const twin = await call(admin, 'POST', `${BASE}/`, { systemName: system.systemName });
    expect(twin.statusCode).toBe(200);
    const clash = await call(admin, 'PUT', `${BASE}/${system.id}/activate/`);
    expect(clash.json().fieldErrors).toEqual({ systemName: [CONFIG_MESSAGES.systems.duplicateName] });
    expect((await call(admin, 'PUT', `${BASE}/${twin.json().id}/deactivate/`)).statusCode).toBe(200);
    expect((await call(admin, 'PUT', `${BASE}/${system.id}/activate/`)).statusCode).toBe(200);
    expect((await call(admin, 'PUT', `${BASE}/${system.id}/activate`)).statusCode).toBe(304);

    const rows = await auditRowsOf(api.prisma, 'SystemAccess', system.id);
    expect(rows.map((r) => r.action)).toEqual(['CREATED', 'DEACTIVATED', 'ACTIVATED']);
  });

  it('holds the rules under concurrent saves: one create per active name, one deactivation, one audit row each', async () => {
    const name = unique('Racing System');
    const creates = await Promise.all([1, 2, 3].map(() => call(admin, 'POST', `${BASE}/`, { systemName: name })));
    expect(creates.map((r) => r.statusCode).sort()).toEqual([200, 422, 422]);
    const system = creates.find((r) => r.statusCode === 200)!.json();
    const offs = await Promise.all([1, 2].map(() => call(admin, 'PUT', `${BASE}/${system.id}/deactivate/`)));
    expect(offs.map((r) => r.statusCode).sort()).toEqual([200, 304]);
    const rows = await auditRowsOf(api.prisma, 'SystemAccess', system.id);
    expect(rows.map((r) => r.action)).toEqual(['CREATED', 'DEACTIVATED']);
    expect(await api.prisma.systemAccess.count({ where: { systemName: name } })).toBe(1);
  });
});

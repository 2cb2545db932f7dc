/**
 * Portal roles (001 §7 Portal roles; §4, §5, §8, §9) against real PostgreSQL: every call, READ_USERS to read
 * and ADMIN to change (403 otherwise), 422 with the spec's keys and messages, 304 for no change, sort 0 on
 * create, delete as deactivate, the in-use list, the last-administrator guard, and one audit row per change.
 */
import { describe, expect, it } from 'vitest';
import { CONFIG_MESSAGES } from '@portal/contract';
import { auditRowsOf, createTestUser, unique, useConfigApi } from './config-support';

const BASE = '/rest/secure/system_mgmt/portal_roles';
const { api, call, admin, readonly, user } = useConfigApi();

describe('portal roles: permissions', () => {
  it('needs a session (401), READ_USERS to read and ADMIN to change (403)', async () => {
    expect((await call(null, 'GET', `${BASE}/getAll`)).statusCode).toBe(401);
    const denied = await call(user, 'GET', `${BASE}/getAll`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ message: 'You are not authorized to view this page' });
    expect((await call(user, 'GET', `${BASE}/1`)).statusCode).toBe(403);
    expect((await call(user, 'GET', `${BASE}/1/inUseByUser`)).statusCode).toBe(403);

    expect((await call(readonly, 'GET', `${BASE}/getAll`)).statusCode).toBe(200);
    const body = { description: unique('Denied'), permissions: ['USER'] };
    expect((await call(readonly, 'POST', `${BASE}/create`, body)).statusCode).toBe(403);
    expect((await call(readonly, 'PUT', `${BASE}/update`, { id: 1, ...body })).statusCode).toBe(403);
    expect((await call(readonly, 'PUT', `${BASE}/deactivate/1`)).statusCode).toBe(403);
    expect((await call(readonly, 'PUT', `${BASE}/activate/1`)).statusCode).toBe(403);
    expect(await api.prisma.portalRole.count({ where: { description: body.description } })).toBe(0);
  });
});

describe('portal roles: create, read, update, delete', () => {
  it('refuses bad bodies with 422 fieldErrors keyed by the spec field names', async () => {
    const empty = await call(admin, 'POST', `${BASE}/create`, {});
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toEqual({
      fieldErrors: { description: ['required'], permissions: [CONFIG_MESSAGES.portalRoles.selectPermission] },
      globalErrors: [],
    });
    const bad = await call(admin, 'POST', `${BASE}/create`, { description: 'x'.repeat(65), permissions: ['ROOT'] });
    expect(bad.json().fieldErrors).toEqual({ description: ['size'], 'permissions[0]': ['invalid'] });
    const none = await call(admin, 'POST', `${BASE}/create`, { description: 'Role', permissions: [] });
    expect(none.json().fieldErrors).toEqual({ permissions: ['You must select a permission'] });
    const taken = await call(admin, 'POST', `${BASE}/create`, {
      description: '  administrator ',
      permissions: ['USER'],
    });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().fieldErrors).toEqual({ description: ['unique'] });
  });

  it('creates with sort 0, lists, reads, updates (304 when unchanged) and audits each change once', async () => {
    const name = unique('Study Monitor');
    const created = await call(admin, 'POST', `${BASE}/create`, {
      description: `  ${name} `,
      permissions: ['READ_USERS'],
      sort: 9,
    });
    expect(created.statusCode).toBe(200);
    const role = created.json();
    expect(role).toMatchObject({ description: name, permissions: ['READ_USERS'], inactive: false, sort: 0 });

    const all = (await call(readonly, 'GET', `${BASE}/getAll`)).json();
    expect(all.map((r: { description: string }) => r.description)).toEqual(
      expect.arrayContaining([name, 'Administrator']),
    );
    expect(all.map((r: { description: string }) => r.description)).not.toContain('Network User');
    const withBasic = (await call(readonly, 'GET', `${BASE}/getAll?includeBasic=true`)).json();
    expect(withBasic.map((r: { description: string }) => r.description)).toContain('Network User');
    expect((await call(readonly, 'GET', `${BASE}/getAll?includeBasic=yes`)).statusCode).toBe(422);

    expect((await call(readonly, 'GET', `${BASE}/${role.id}`)).json()).toEqual(role);
    const missing = await call(readonly, 'GET', `${BASE}/999999`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: CONFIG_MESSAGES.portalRoles.load });
    expect((await call(readonly, 'GET', `${BASE}/abc`)).json().fieldErrors).toEqual({ id: ['invalid'] });

    const same = await call(admin, 'PUT', `${BASE}/update`, {
      id: role.id,
      description: name,
      permissions: ['READ_USERS'],
    });
    expect(same.statusCode).toBe(304);
    expect(same.body).toBe('');
    const noId = await call(admin, 'PUT', `${BASE}/update`, { description: name, permissions: ['USER'] });
    expect(noId.json().fieldErrors).toEqual({ id: ['required'] });

    const renamed = `${name} II`;
    const updated = await call(admin, 'PUT', `${BASE}/update`, {
      id: role.id,
      description: renamed,
      permissions: ['WRITE_USERS'],
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ id: role.id, description: renamed, permissions: ['WRITE_USERS'], sort: 0 });
    const clash = await call(admin, 'PUT', `${BASE}/update`, {
      id: role.id,
      description: 'User Support',
      permissions: ['USER'],
    });
    expect(clash.json().fieldErrors).toEqual({ description: ['unique'] });

    const rows = await auditRowsOf(api.prisma, 'PortalRole', role.id);
    expect(rows.map((r) => r.action)).toEqual(['CREATED', 'UPDATED']);
    expect(rows[0]).toMatchObject({ actorUsername: 'admin', before: null, after: role });
    expect(rows[1]!.before).toMatchObject({ description: name, permissions: ['READ_USERS'] });
    expect(rows[1]!.after).toMatchObject({ description: renamed, permissions: ['WRITE_USERS'] });
  });

  it('lists the active users referencing a role, and deletes by deactivating (304 when already inactive)', async () => {
    const role = (
      await call(admin, 'POST', `${BASE}/create`, { description: unique('Temp Role'), permissions: ['USER'] })
    ).json();
    expect((await call(readonly, 'GET', `${BASE}/${role.id}/inUseByUser`)).json()).toEqual([]);
    const holder = await createTestUser(api.prisma, 'portal role');
    const gone = await createTestUser(api.prisma, 'inactive');
    await api.prisma.portalUser.update({ where: { id: gone.id }, data: { inactive: true } });
    await api.prisma.portalUserRole.createMany({
      data: [holder, gone].map((u) => ({ portalUserId: u.id, portalRoleId: role.id })),
    });
    const inUse = (await call(readonly, 'GET', `${BASE}/${role.id}/inUseByUser`)).json();
    expect(inUse).toEqual([
      { id: holder.id, username: holder.username, firstName: 'Config', lastName: holder.lastName, email: holder.email },
    ]);
    expect((await call(readonly, 'GET', `${BASE}/999999/inUseByUser`)).statusCode).toBe(404);

    const other = await call(admin, 'PUT', `${BASE}/delete/${role.id}`);
    expect(other.statusCode).toBe(422);
    expect(other.json().fieldErrors).toEqual({ action: ['invalid'] });

    const off = await call(admin, 'PUT', `${BASE}/deactivate/${role.id}`);
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ id: role.id, inactive: true });
    expect((await call(admin, 'PUT', `${BASE}/deactivate/${role.id}`)).statusCode).toBe(304);
    expect((await call(readonly, 'GET', `${BASE}/getAll?includeBasic=true`)).json()).toContainEqual(
      expect.objectContaining({ id: role.id, inactive: true }),
    );
    const on = await call(admin, 'PUT', `${BASE}/activate/${role.id}/`);
    expect(on.statusCode).toBe(200);
    expect(on.json().inactive).toBe(false);
    expect((await call(admin, 'PUT', `${BASE}/activate/${role.id}`)).statusCode).toBe(304);
    expect((await call(admin, 'PUT', `${BASE}/deactivate/999999`)).statusCode).toBe(404);

    const rows = await auditRowsOf(api.prisma, 'PortalRole', role.id);
    expect(rows.map((r) => r.action)).toEqual(['CREATED', 'DEACTIVATED', 'ACTIVATED']);
    expect(rows[1]).toMatchObject({ before: { inactive: false }, after: { inactive: true } });
  });

  it('refuses a change that would leave no active user with ADMIN, writing nothing', async () => {
    const administrator = await api.prisma.portalRole.findUniqueOrThrow({ where: { description: 'Administrator' } });
    // The role's own audit rows: other files write audit rows beside this one.
    const auditBefore = await auditRowsOf(api.prisma, 'PortalRole', administrator.id);
    const off = await call(admin, 'PUT', `${BASE}/deactivate/${administrator.id}`);
    expect(off.statusCode).toBe(422);
    expect(off.json().globalErrors).toEqual(['This change would leave no active user with the ADMIN permission.']);
    const demoted = await call(admin, 'PUT', `${BASE}/update`, {
      id: administrator.id,
      description: 'Administrator',
      permissions: ['USER'],
    });
    expect(demoted.statusCode).toBe(422);
    expect(await api.prisma.portalRole.findUniqueOrThrow({ where: { id: administrator.id } })).toEqual(administrator);
    expect(await auditRowsOf(api.prisma, 'PortalRole', administrator.id)).toEqual(auditBefore);
  });
});

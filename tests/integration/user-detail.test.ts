/**
 * The user detail's calls (000 §7 User management: GET user/{id}, PUT update_user, PUT activate_user/{id},
 * deactivate_user/{id}) against real PostgreSQL and OpenLDAP: permissions, 404, every 422 key of 000 §5,
 * 304 for no change, the `internal` lock, the directory entry written before the row, sessions ended at
 * deactivation, and one audit row per change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER_DETAIL_MESSAGES, type UserDetail } from '@portal/contract';
import { readPersonFields } from '@portal/directory';
import { type TestApp, type TestUser, buildTestApp, createTestUser } from './auth-helpers';
import { freePort } from '@portal/scripts';
import { type Session, caller, signIn } from './harness';

const BASE = '/rest/secure/user_management';
let t: TestApp;
let call: ReturnType<typeof caller>;
let admin: Session;
let reviewer: Session;
let readonly: Session;
let plain: Session;

beforeAll(async () => {
  t = await buildTestApp();
  call = caller(t.app);
  admin = await signIn(t.app, 'admin');
  reviewer = await signIn(t.app, 'reviewer');
  readonly = await signIn(t.app, 'readonly');
  plain = await signIn(t.app, 'user');
});
afterAll(async () => t?.close());

const read = async (id: number): Promise<UserDetail> => {
  const res = await call(admin, 'GET', `${BASE}/user/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const save = (s: Session, body: unknown) => call(s, 'PUT', `${BASE}/update_user`, body);
const auditOf = (id: number) =>
  t.prisma.auditEvent.findMany({ where: { entityType: 'PortalUser', entityId: String(id) }, orderBy: { id: 'asc' } });

describe('GET user/{id}', () => {
  it('reads the user with READ_USERS, refuses others, 404 for an unknown id', async () => {
    const u = await createTestUser(t, 'udread');
    const res = await call(readonly, 'GET', `${BASE}/user/${u.user.id}`);
    expect(res.statusCode).toBe(200);
    const body: UserDetail = res.json();
    expect(body).toMatchObject({ id: u.user.id, username: u.username, email: u.email, inactive: false });
    expect(body.uidNumber).toEqual(expect.any(Number));
    expect(body.portalRoleIds).toHaveLength(1);
    expect((await call(plain, 'GET', `${BASE}/user/${u.user.id}`)).statusCode).toBe(403);
    expect((await call(null, 'GET', `${BASE}/user/${u.user.id}`)).statusCode).toBe(401);
    const missing = await call(admin, 'GET', `${BASE}/user/2000000000`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: USER_DETAIL_MESSAGES.loadUserFailed });
  });
});

describe('PUT update_user', () => {
  let u: TestUser;
  beforeAll(async () => {
    u = await createTestUser(t, 'udsave');
  });

  it('needs WRITE_USERS', async () => {
    const body = await read(u.user.id);
    expect((await save(readonly, { ...body, jobTitle: 'x' })).statusCode).toBe(403);
  });

  it('answers 304 when nothing changed', async () => {
    const res = await save(reviewer, await read(u.user.id));
    expect(res.statusCode).toBe(304);
  });

  it('answers 422 with the spec keys for every limit and rule', async () => {
    const body = await read(u.user.id);
    const other = await createTestUser(t, 'udother');
    const long = await save(reviewer, {
      ...body,
      firstName: 'f'.repeat(46),
      lastName: 'l'.repeat(46),
      email: `${'e'.repeat(250)}@x.test`,
      username: 'u'.repeat(65),
      gecos: 'g'.repeat(92),
      organizationName: 'o'.repeat(65),
      jobTitle: 'j'.repeat(46),
      phoneNumber: '1'.repeat(16),
      phoneExtension: '1'.repeat(6),
      address1: 'a'.repeat(256),
      address2: 'a'.repeat(256),
      city: 'c'.repeat(256),
      postalCode: 'p'.repeat(21),
    });
    expect(long.statusCode).toBe(422);
    expect(long.json().fieldErrors).toEqual(
      Object.fromEntries(
        [
          'firstName',
          'lastName',
          'email',
          'username',
          'gecos',
          'organizationName',
          'jobTitle',
          'phoneNumber',
          'phoneExtension',
          'address1',
          'address2',
          'city',
          'postalCode',
        ].map((f) => [f, ['size']]),
      ),
    );
    const empty = await save(reviewer, { ...body, firstName: ' ', lastName: '', email: 'not-an-email' });
    expect(empty.json().fieldErrors).toEqual({
      firstName: ['required'],
      lastName: ['required'],
      email: ['validEmail'],
    });
    const taken = await save(reviewer, { ...body, email: other.email.toUpperCase(), username: other.username });
    expect(taken.json()).toEqual({ fieldErrors: { email: ['unique'], username: ['unique'] }, globalErrors: [] });
    const ascii = await save(reviewer, { ...body, gecos: 'Zoë Person' });
    expect(ascii.json()).toEqual({ fieldErrors: { gecos: ['invalid'] }, globalErrors: [] });
    const codes = await save(reviewer, { ...body, country: 'ZZ', state: 'QQ', portalRoleIds: [2000000000] });
    expect(codes.json().fieldErrors).toEqual({
      country: ['unknown'],
      state: ['unknown'],
      portalRoleIds: ['unknown'],
    });
    expect(await readPersonFields(t.directory, u.user.uuid!)).toMatchObject({ email: u.email });
  });

  it('saves the details, clears the state with the country, and writes one audit row', async () => {
    const withStates = await t.prisma.country.findFirstOrThrow({
      where: { states: { some: {} } },
      include: { states: true },
    });
    const body = await read(u.user.id);
    const state = withStates.states[0]!.state;
    const res = await save(reviewer, { ...body, jobTitle: 'Coordinator', country: withStates.country, state });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ jobTitle: 'Coordinator', country: withStates.country, state });
    const cleared = await save(reviewer, { ...(res.json() as UserDetail), country: null, state: null });
    expect(cleared.json()).toMatchObject({ country: null, state: null });
    const audit = await auditOf(u.user.id);
    expect(audit.map((a) => a.action)).toEqual(['UPDATED', 'UPDATED']);
    expect(audit[0]).toMatchObject({ actorUsername: 'reviewer', before: expect.objectContaining({ jobTitle: '' }) });
  });

  it('writes a name, email or username change to the directory entry and then the row', async () => {
    const body = await read(u.user.id);
    const next = { firstName: 'Renamed', lastName: 'Person', email: `r.${u.email}`, username: `r${u.username}` };
    const res = await save(reviewer, { ...body, ...next, gecos: 'Renamed Person, Site 4' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await readPersonFields(t.directory, u.user.uuid!)).toEqual({ ...next, gecos: 'Renamed Person, Site 4' });
    expect(await t.prisma.portalUser.findUniqueOrThrow({ where: { id: u.user.id } })).toMatchObject(next);
    // The renamed person signs in with the new username and the same password.
    await signIn(t.app, next.username, u.password);
  });

  it('answers 503 with the spec text and changes nothing when the directory cannot be reached', async () => {
    // A second API whose directory address has nothing listening: the directory is down for it.
    const down = await buildTestApp({ LDAP_URL: `ldap://127.0.0.1:${await freePort()}` });
    try {
      const body = await read(u.user.id);
      const entry = await readPersonFields(t.directory, u.user.uuid!);
      const rowBefore = await t.prisma.portalUser.findUniqueOrThrow({ where: { id: u.user.id } });
      const audits = (await auditOf(u.user.id)).length;
      // The reviewer's session lives in PostgreSQL, so it is good on the second API (signing in there would
      // need the directory).
      const res = await caller(down.app)(reviewer, 'PUT', `${BASE}/update_user`, {
        ...body,
        lastName: 'Unreachable',
        phoneNumber: '555-0100',
      });
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toEqual({ message: USER_DETAIL_MESSAGES.updateFailed });
      expect(await readPersonFields(t.directory, u.user.uuid!)).toEqual(entry);
      expect(await t.prisma.portalUser.findUniqueOrThrow({ where: { id: u.user.id } })).toEqual(rowBefore);
      expect(await auditOf(u.user.id)).toHaveLength(audits);
    } finally {
      await down.close();
    }
  });

  it('refuses an email another directory entry holds (doesntExistInLdap), writing nothing', async () => {
    const other = await createTestUser(t, 'udldap');
    await t.prisma.portalUser.update({ where: { id: other.user.id }, data: { email: `moved.${other.email}` } });
    const body = await read(u.user.id);
    const res = await save(reviewer, { ...body, email: other.email });
    expect(res.json()).toEqual({ fieldErrors: { email: ['doesntExistInLdap'] }, globalErrors: [] });
    expect((await readPersonFields(t.directory, u.user.uuid!))!.email).toBe(body.email);
  });

  it('locks the directory fields of an internal user for everyone but an admin', async () => {
    const i = await createTestUser(t, 'udint');
    await t.prisma.portalUser.update({ where: { id: i.user.id }, data: { accountType: 'internal' } });
    const body = await read(i.user.id);
    const change = {
      firstName: 'Changed',
      lastName: 'Name',
      email: `c.${i.email}`,
      username: `c${i.username}`,
      gecos: 'G',
    };
    const refused = await save(reviewer, { ...body, ...change });
    expect(refused.json().fieldErrors).toEqual(Object.fromEntries(Object.keys(change).map((f) => [f, ['internal']])));
    expect((await save(reviewer, { ...body, jobTitle: 'Allowed' })).statusCode).toBe(200);
    const byAdmin = await save(admin, { ...(await read(i.user.id)), ...change });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect(await readPersonFields(t.directory, i.user.uuid!)).toEqual(change);
    expect(byAdmin.json()).toMatchObject({ ...change, accountType: 'internal' });
  });

  it('lets only an admin give or take a role that grants ADMIN', async () => {
    const adminRole = await t.prisma.portalRole.findFirstOrThrow({ where: { permissions: { has: 'ADMIN' } } });
    const body = await read(u.user.id);
    const up = { ...body, portalRoleIds: [...body.portalRoleIds, adminRole.id] };
    expect((await save(reviewer, up)).statusCode).toBe(403);
    const res = await save(admin, up);
    expect(res.json().portalRoleIds).toContain(adminRole.id);
    expect((await save(admin, body)).json().portalRoleIds).toEqual(body.portalRoleIds);
  });
});

describe('PUT activate_user / deactivate_user', () => {
  it('deactivates (ending the sessions at once), activates, 304 when unchanged, audited', async () => {
    const u = await createTestUser(t, 'udstatus');
    const own = await signIn(t.app, u.username, u.password);
    expect((await call(own, 'GET', '/rest/secure/user_profile')).statusCode).toBe(200);
    expect((await call(readonly, 'PUT', `${BASE}/deactivate_user/${u.user.id}`)).statusCode).toBe(403);

    const off = await call(reviewer, 'PUT', `${BASE}/deactivate_user/${u.user.id}`);
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().inactive).toBe(true);
    expect(await t.prisma.session.count({ where: { portalUserId: u.user.id } })).toBe(0);
    expect((await call(own, 'GET', '/rest/secure/user_profile')).statusCode).toBe(401);
    expect((await call(reviewer, 'PUT', `${BASE}/deactivate_user/${u.user.id}`)).statusCode).toBe(304);

    const on = await call(reviewer, 'PUT', `${BASE}/activate_user/${u.user.id}`);
    expect(on.json().inactive).toBe(false);
    expect((await call(reviewer, 'PUT', `${BASE}/activate_user/${u.user.id}`)).statusCode).toBe(304);
    const audit = await auditOf(u.user.id);
    expect(audit.map((a) => [a.action, a.actorUsername])).toEqual([
      ['DEACTIVATED', 'reviewer'],
      ['ACTIVATED', 'reviewer'],
    ]);
    expect(audit[0]!.after).toEqual({ inactive: true, sessionsEnded: 1 });
  });

  it("refuses a change of one's own status and an unknown id", async () => {
    const me = await t.prisma.portalUser.findUniqueOrThrow({ where: { username: 'reviewer' } });
    const own = await call(reviewer, 'PUT', `${BASE}/deactivate_user/${me.id}`);
    expect(own.json()).toEqual({ fieldErrors: {}, globalErrors: [USER_DETAIL_MESSAGES.ownStatus] });
    expect((await call(reviewer, 'PUT', `${BASE}/activate_user/2000000000`)).statusCode).toBe(404);
  });
});

/**
 * PUT /rest/secure/user_profile_mod (000 §7, 001 §7 Own profile; 000 §4 Saving, §5 limits) against real
 * PostgreSQL: the signed-in user's Details fields saved and answered as the profile (country and state as
 * objects), 304 for no change, 422 with the spec's keys, name and email never written, one audit row, and the
 * USER permission (SET_OWN_PASSWORD alone is refused).
 */
import { type Profile, ProfileSchema } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestUser, buildTestApp, createTestUser } from './auth-helpers';
import { type Session, caller, signIn } from './harness';

const URL = '/rest/secure/user_profile_mod';
let t: TestApp;
let call: ReturnType<typeof caller>;
let u: TestUser;
let s: Session;

beforeAll(async () => {
  t = await buildTestApp();
  call = caller(t.app);
  u = await createTestUser(t, 'pdet');
  s = await signIn(t.app, u.username, u.password);
});
afterAll(async () => t?.close());

const profile = async (): Promise<Profile> => {
  const res = await call(s, 'GET', '/rest/secure/user_profile');
  expect(res.statusCode, res.body).toBe(200);
  return ProfileSchema.strict().parse(res.json());
};

describe('PUT user_profile_mod', () => {
  it('saves the details sent as the profile, answers the saved profile, and leaves name and email alone', async () => {
    const before = await profile();
    const res = await call(s, 'PUT', URL, {
      ...before,
      firstName: 'Renamed',
      email: 'renamed@it.portal.test',
      organizationName: ' North Lead ',
      jobTitle: 'Coordinator',
      phoneNumber: '555-0100',
      phoneExtension: '12',
      address1: '1 Main St',
      address2: 'Suite 2',
      city: 'Springfield',
      country: { country: 'US', countryName: 'United States' },
      state: 'IL',
      postalCode: '62701',
    });
    expect(res.statusCode, res.body).toBe(200);
    const saved = ProfileSchema.strict().parse(res.json());
    expect(saved).toMatchObject({
      firstName: before.firstName,
      email: before.email,
      organizationName: 'North Lead',
      phoneExtension: '12',
      address1: '1 Main St',
      city: 'Springfield',
      country: { country: 'US', countryName: 'United States' },
      state: { state: 'IL', stateName: 'Illinois' },
      postalCode: '62701',
    });
    expect(await profile()).toEqual(saved);
    const audit = await t.prisma.auditEvent.findMany({
      where: { entityType: 'PortalUser', entityId: String(u.user.id) },
    });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorUserId: u.user.id, action: 'UPDATED' });
  });

  it('answers 304 when nothing changed (the profile sent back as it is)', async () => {
    const res = await call(s, 'PUT', URL, await profile());
    expect(res.statusCode).toBe(304);
    expect(res.body).toBe('');
  });

  it('answers 422 with the spec keys: limits, phone characters, unknown country, a state of another country', async () => {
    const before = await profile();
    const long = await call(s, 'PUT', URL, {
      ...before,
      organizationName: 'o'.repeat(65),
      jobTitle: 'j'.repeat(46),
      phoneNumber: '1'.repeat(16),
      phoneExtension: '123456',
      address1: 'a'.repeat(256),
      city: 'c'.repeat(256),
      postalCode: 'p'.repeat(21),
    });
    expect(long.statusCode).toBe(422);
    expect(long.json().fieldErrors).toEqual({
      organizationName: ['size'],
      jobTitle: ['size'],
      phoneNumber: ['size'],
      phoneExtension: ['size'],
      address1: ['size'],
      city: ['size'],
      postalCode: ['size'],
    });
    const phone = await call(s, 'PUT', URL, { ...before, phoneNumber: 'call me' });
    expect(phone.statusCode).toBe(422);
    expect(phone.json().fieldErrors).toEqual({ phoneNumber: ['invalid'] });
    const country = await call(s, 'PUT', URL, { ...before, country: 'QQ', state: null });
    expect(country.statusCode).toBe(422);
    expect(country.json().fieldErrors).toEqual({ country: ['unknown'] });
    const state = await call(s, 'PUT', URL, { ...before, country: 'CA', state: 'IL' });
    expect(state.statusCode).toBe(422);
    expect(state.json().fieldErrors).toEqual({ state: ['unknown'] });
    expect(await profile()).toEqual(before);
  });

  // Issue 21 case 10: a body that does not validate changes nothing. `null` and `{}` used to be read as a
  // body of defaults (200 erasing every Details field, or 304), and an array or an unknown object as a
  // state or country was read as no code (stored null).
  it('refuses a null or empty body, and a country or state that is an array or an unknown object, changing nothing', async () => {
    const before = await profile();
    const json = { 'content-type': 'application/json' };
    const nullBody = await call(s, 'PUT', URL, 'null', { headers: json });
    expect(nullBody.statusCode, nullBody.body).toBe(422);
    const empty = await call(s, 'PUT', URL, {});
    expect(empty.statusCode, empty.body).toBe(422);
    expect(empty.json().fieldErrors).toMatchObject({ organizationName: ['required'], city: ['required'] });
    const partial = await call(s, 'PUT', URL, { city: 'Elsewhere' });
    expect(partial.statusCode, partial.body).toBe(422);
    expect(partial.json().fieldErrors).toMatchObject({ organizationName: ['required'] });
    for (const state of [['IL'], { a: 1 }]) {
      const res = await call(s, 'PUT', URL, { ...before, state });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().fieldErrors).toEqual({ state: ['invalid'] });
    }
    const country = await call(s, 'PUT', URL, { ...before, country: ['US'] });
    expect(country.statusCode, country.body).toBe(422);
    expect(await profile()).toEqual(before);
  });

  it('answers a body nested thousands of levels deep with 422, not 500', async () => {
    const before = await profile();
    const deep = '['.repeat(5_000) + ']'.repeat(5_000);
    const raw = JSON.stringify({ ...before, organizationName: 'x' }).replace('"x"', deep);
    const res = await call(s, 'PUT', URL, raw, { headers: { 'content-type': 'application/json' } });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().fieldErrors).toEqual({ organizationName: ['invalid'] });
    expect(await profile()).toEqual(before);
  });

  it('clears the state with the country', async () => {
    const res = await call(s, 'PUT', URL, { ...(await profile()), country: null, state: null });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ country: null, state: null, city: 'Springfield' });
  });

  it('needs a session, the XSRF header and USER (SET_OWN_PASSWORD alone is refused)', async () => {
    const body = await profile();
    expect((await call(null, 'PUT', URL, body)).statusCode).toBe(401);
    expect((await call(s, 'PUT', URL, { ...body, city: 'X' }, { xsrf: false })).statusCode).toBe(403);
    const self = await createTestUser(t, 'pdself', { roles: ['Password Self-Service'] });
    const selfSession = await signIn(t.app, self.username, self.password);
    const denied = await call(selfSession, 'PUT', URL, { ...body, city: 'Elsewhere' });
    expect(denied.statusCode).toBe(403);
    const row = await t.prisma.portalUser.findUniqueOrThrow({ where: { id: self.user.id } });
    expect(row.city).toBe('');
  });
});

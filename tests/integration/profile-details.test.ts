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

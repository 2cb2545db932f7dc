/**
 * The signed-in user's profile (000 §7 user_profile): the whole body as the contract declares it, with the
 * phone extension the proxy registration's requester banner shows (001 §2.2; issue 10).
 */
import { ProfileSchema } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, createTestUser, signIn, type TestApp } from './auth-helpers';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});

afterAll(async () => {
  await t?.close();
});

describe('GET /rest/secure/user_profile', () => {
  it('answers the contract profile, phone number and extension included', async () => {
    const u = await createTestUser(t, 'prof');
    await t.prisma.portalUser.update({
      where: { id: u.user.id },
      data: { phoneNumber: '555-0177', phoneExtension: '321', organizationName: 'North Lead', jobTitle: 'Nurse' },
    });
    const s = await signIn(t.app, u.username, u.password);
    const res = await call(t.app, s, 'GET', '/rest/secure/user_profile');
    expect(res.statusCode).toBe(200);
    const body = ProfileSchema.strict().parse(res.json());
    expect(body).toMatchObject({
      portalUserId: u.user.id,
      username: u.username,
      email: u.email,
      phoneNumber: '555-0177',
      phoneExtension: '321',
      organizationName: 'North Lead',
      jobTitle: 'Nurse',
    });
    expect(body.roles.map((r) => r.description)).toEqual(['Network User']);
  });

  it('answers an empty extension as an empty string', async () => {
    const u = await createTestUser(t, 'noext');
    const s = await signIn(t.app, u.username, u.password);
    const res = await call(t.app, s, 'GET', '/rest/secure/user_profile');
    expect(res.json()).toMatchObject({ phoneExtension: '' });
  });
});

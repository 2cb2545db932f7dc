/**
 * The proxy right comes from configuration (000 §6, 001 §6, §9): an API started with other lists than the
 * spec's names gives the right to holders of the configured study role and takes it from 'LAO Staff', in the
 * profile's capability, the batch calls and the proxy's reading of the users list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestUser } from '../auth-helpers';
import { type TestApi, caller, signIn, startApi } from '../harness';
import { BATCH_URL } from './support';

let api: TestApi;

beforeAll(async () => {
  api = await startApi({
    PROXY_STUDY_ROLES: 'Clinical Research Associate , Data Manager',
    PROXY_PORTAL_ROLES: '',
    PROXY_ALL_USERS_PORTAL_ROLES: '',
  });
});

afterAll(async () => {
  await api?.close();
});

describe('configured proxy lists', () => {
  it('give the right to the configured study role only', async () => {
    const call = caller(api.app);
    const cra = await createTestUser(api, 'pbcfg');
    await api.prisma.userAccess.create({
      data: {
        portalUserId: cra.user.id,
        roleName: 'Clinical Research Associate',
        siteCodes: ['MA036'],
        createdBy: 't',
        lastModifiedBy: 't',
      },
    });
    const craSession = await signIn(api.app, cra.username, cra.password);
    const laostaff = await signIn(api.app, 'laostaff');
    const admin = await signIn(api.app, 'admin');

    const capability = async (s: typeof admin) =>
      (await call(s, 'GET', '/rest/secure/user_profile')).json().canSubmitProxyAccessChangeRequests;
    expect(await capability(craSession)).toEqual({ canSubmit: true, forAllUsers: false });
    expect(await capability(laostaff)).toEqual({ canSubmit: false, forAllUsers: false });
    // 'Administrator' is no longer in PROXY_PORTAL_ROLES; the admin persona holds no listed study role.
    expect(await capability(admin)).toEqual({ canSubmit: false, forAllUsers: false });

    expect((await call(craSession, 'GET', BATCH_URL)).statusCode).toBe(200);
    expect((await call(laostaff, 'GET', BATCH_URL)).statusCode).toBe(403);
    const list = (s: typeof admin) => call(s, 'GET', '/rest/secure/user_management/users?siteCode=MA036');
    expect((await list(craSession)).statusCode).toBe(200);
    // laostaff has no READ_USERS: without the proxy right the list is refused.
    expect((await list(laostaff)).statusCode).toBe(403);
  });
});

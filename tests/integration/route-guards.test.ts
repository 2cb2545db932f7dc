/**
 * The permission a route declares is checked before its input is parsed (issue 8; 000 §6): a caller without
 * it gets 403 'You are not authorized to view this page', never a 422 that lists the route's field names,
 * whatever the body, params or query hold. With the permission, the same input is a 422 with fieldErrors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/contract';
import { startConfigApi } from './config-support';

let t: Awaited<ReturnType<typeof startConfigApi>>;
beforeAll(async () => {
  t = await startConfigApi();
});
afterAll(async () => t.api.close());

const forbidden = { message: MESSAGES.signIn.notAuthorized };

describe('permission before validation', () => {
  it('answers 403 to a READ_USERS caller sending an invalid body to an ADMIN route', async () => {
    const bad = { description: '', permissions: ['NOT_A_PERMISSION'], id: 'x' };
    const denied = await t.call(t.readonly, 'PUT', '/rest/secure/system_mgmt/portal_roles/update', bad);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual(forbidden);

    const checked = await t.call(t.admin, 'PUT', '/rest/secure/system_mgmt/portal_roles/update', bad);
    expect(checked.statusCode).toBe(422);
    expect(Object.keys(checked.json().fieldErrors).sort()).toEqual(['description', 'id', 'permissions[0]']);
  });

  it('answers 403 to a READ_USERS caller with a bad path id on an ADMIN or WRITE_USERS route', async () => {
    for (const [method, url] of [
      ['PUT', '/rest/secure/system_mgmt/study_role/abc/activate'],
      ['PUT', '/rest/secure/system_mgmt/system_access/0'],
      ['POST', '/rest/secure/set_initial_password/resend/not-an-id'],
    ] as const) {
      const denied = await t.call(t.readonly, method, url, { systemName: 7 });
      expect(denied.statusCode, url).toBe(403);
      expect(denied.json(), url).toEqual(forbidden);
    }
  });

  it('answers 403 to a USER caller with a bad query on a READ_USERS route', async () => {
    const denied = await t.call(t.user, 'GET', '/rest/secure/audit_trail?page=0&sort=password');
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual(forbidden);
    const checked = await t.call(t.readonly, 'GET', '/rest/secure/audit_trail?page=0&sort=password');
    expect(checked.statusCode).toBe(422);
    // page=0 is out of range, not missing: `invalid` (issue 13, strict types).
    expect(checked.json().fieldErrors).toEqual({ page: ['invalid'], sort: ['invalid'] });
  });

  it('reads path ids by the one id rule: digits within 1..2147483647, else 422 invalid', async () => {
    for (const id of ['0', '2147483648', '1.5', '-1']) {
      const res = await t.call(t.readonly, 'GET', `/rest/secure/system_mgmt/system_access/${id}`);
      expect(res.statusCode, id).toBe(422);
      expect(res.json(), id).toEqual({ fieldErrors: { id: ['invalid'] }, globalErrors: [] });
    }
    expect((await t.call(t.readonly, 'GET', '/rest/secure/system_mgmt/system_access/2147483647')).statusCode).toBe(404);
  });
});

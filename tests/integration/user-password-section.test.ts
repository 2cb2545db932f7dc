/**
 * The calls behind the user detail's password section (000 §2 User detail "password-change restriction
 * section", §7 user_management; issue 11): the restriction with its date
 * (admin/user_management/passwordChangeRestriction/{uuid}, ADMIN, beside the spec's boolean), cleared by
 * clearUsersPasswordAllowChangeTime, and the reads the section shows ('ever', initial password set).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, createTestUser, DAY_MS, signIn, type TestApp } from './auth-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('password section calls', () => {
  it('shows until when a fresh password may not be changed, clears it (ADMIN), and refuses others', async () => {
    // A password set just now: inside the directory's 24-hour minimum age.
    const u = await createTestUser(t, 'pwsection', { passwordAgeDays: 0 });
    const admin = await signIn(t.app, 'admin');
    const reviewer = await signIn(t.app, 'reviewer');
    const url = `/rest/secure/admin/user_management/passwordChangeRestriction/${u.user.uuid}`;
    const clear = `/rest/secure/admin/user_management/clearUsersPasswordAllowChangeTime/${u.user.uuid}`;

    const before = await call(t.app, admin, 'GET', url);
    expect(before.statusCode, before.body).toBe(200);
    const body = before.json();
    expect(body.restricted).toBe(true);
    expect(Math.abs(Date.parse(body.changeAllowedFrom) - (Date.now() + DAY_MS))).toBeLessThan(60_000);
    const spec = `/rest/secure/admin/user_management/isUserCurrentlyRestrictedByAllowChangeTime/${u.user.uuid}`;
    expect((await call(t.app, admin, 'GET', spec)).json()).toBe(true);

    expect((await call(t.app, reviewer, 'GET', url)).statusCode).toBe(403);
    expect(
      (await call(t.app, admin, 'GET', '/rest/secure/admin/user_management/passwordChangeRestriction/x')).statusCode,
    ).toBe(422);
    expect((await call(t.app, admin, 'POST', clear, {})).statusCode).toBe(200);
    expect((await call(t.app, admin, 'GET', url)).json()).toEqual({ restricted: false, changeAllowedFrom: null });

    // The section's reads: the portal manages the password, and the initial one was set.
    const ever = await call(
      t.app,
      reviewer,
      'GET',
      `/rest/secure/user_management/can_change_password_ever/${u.user.id}`,
    );
    expect(ever.json()).toBe(true);
    const initial = await call(
      t.app,
      reviewer,
      'GET',
      `/rest/secure/user_management/hasSetInitialPassword/${u.user.id}`,
    );
    expect(initial.json()).toBe(true);
  });
});

/**
 * The user's own password change and the password-change time restriction (000 §2 Change Password, §3,
 * §6, §7 change_password/attempt, can_change_password_{ever|now} and the time a change becomes possible
 * (password_change_restriction, issue 9), password_validation/rules and the
 * user-management / admin password calls, §8 Passwords), against slapd's ppolicy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '@portal/db/seed';
import { buildTestApp, call, createTestUser, freshPassword, type Session, signIn, type TestApp } from './auth-helpers';

let t: TestApp;
let rules: Record<string, { id: string; text: string }>;
const demo = (username: string) => DEMO_ACCOUNTS.find((a) => a.username === username)!.password;
const CHANGE = '/rest/secure/change_password/attempt';

beforeAll(async () => {
  t = await buildTestApp();
  rules = (await t.app.inject({ method: 'GET', url: '/rest/public/password_validation/rules' })).json();
});

afterAll(async () => {
  await t?.close();
});

describe('password rules (000 §3 Password rule, §7)', () => {
  it('serves the rules as an object of { id, text }, with the numbers of the directory policy', () => {
    expect(Object.keys(rules)).toEqual([
      'minLength',
      'maxLength',
      'uppercase',
      'lowercase',
      'digit',
      'special',
      'noSpaces',
      'notUsername',
      'history',
      'minAge',
    ]);
    expect(rules.minLength).toEqual({ id: 'minLength', text: 'At least 12 characters long' });
    expect(rules.history!.text).toContain('last 5 passwords');
    expect(rules.minAge!.text).toContain('24 hours');
  });
});

describe('change own password (000 §4 After a password change)', () => {
  it('enforces the rules on the server: 422 with the broken rules under newPassword', async () => {
    const u = await createTestUser(t, 'rules');
    const s = await signIn(t.app, u.username, u.password);
    const weak = await call(t.app, s, 'POST', CHANGE, { currentPassword: u.password, newPassword: 'short' });
    expect(weak.statusCode).toBe(422);
    expect(weak.json()).toEqual({
      fieldErrors: {
        newPassword: [rules.minLength!.text, rules.uppercase!.text, rules.digit!.text, rules.special!.text],
      },
      globalErrors: [],
    });
    const named = await call(t.app, s, 'POST', CHANGE, {
      currentPassword: u.password,
      newPassword: `Xx1!-${u.username}-long`,
    });
    expect(named.json().fieldErrors).toEqual({ newPassword: [rules.notUsername!.text] });
    const same = await call(t.app, s, 'POST', CHANGE, { currentPassword: u.password, newPassword: u.password });
    expect(same.json().fieldErrors).toEqual({ newPassword: [rules.history!.text] });
    const empty = await call(t.app, s, 'POST', CHANGE, { currentPassword: '', newPassword: '' });
    expect(empty.json()).toEqual({
      fieldErrors: { currentPassword: ['required'], newPassword: ['required'] },
      globalErrors: [],
    });
  });

  it('refuses a wrong current password with a field error', async () => {
    const u = await createTestUser(t, 'cur');
    const s = await signIn(t.app, u.username, u.password);
    const res = await call(t.app, s, 'POST', CHANGE, {
      currentPassword: 'Wrong-Current-1!',
      newPassword: freshPassword(),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ fieldErrors: { currentPassword: ['invalid'] }, globalErrors: [] });
  });

  it('changes the password through the directory, then restricts the next change until an admin clears it', async () => {
    const u = await createTestUser(t, 'age');
    const s = await signIn(t.app, u.username, u.password);
    const caps = async (x: Session) => [
      (await call(t.app, x, 'GET', '/rest/secure/user_capabilities/can_change_password_ever')).json(),
      (await call(t.app, x, 'GET', '/rest/secure/user_capabilities/can_change_password_now')).json(),
    ];
    const restriction = async (x: Session) =>
      (await call(t.app, x, 'GET', '/rest/secure/user_capabilities/password_change_restriction')).json();
    expect(await caps(s)).toEqual([true, true]);
    expect(await restriction(s)).toEqual({ canChangeNow: true, changeAllowedFrom: null });

    const first = freshPassword();
    const changedAt = Date.now();
    expect((await call(t.app, s, 'POST', CHANGE, { currentPassword: u.password, newPassword: first })).statusCode).toBe(
      200,
    );
    expect(await caps(s)).toEqual([true, false]);
    // The time a change becomes possible: pwdChangedTime (whole seconds) + pwdMinAge (24 hours).
    const restricted = await restriction(s);
    expect(restricted.canChangeNow).toBe(false);
    const allowedFrom = Date.parse(restricted.changeAllowedFrom);
    expect(Math.abs(allowedFrom - (changedAt + 24 * 3_600_000))).toBeLessThan(10_000);

    const admin = await signIn(t.app, 'admin', demo('admin'));
    const restrictedUrl = `/rest/secure/admin/user_management/isUserCurrentlyRestrictedByAllowChangeTime/${u.user.uuid}`;
    const clearUrl = `/rest/secure/admin/user_management/clearUsersPasswordAllowChangeTime/${u.user.uuid}`;
    expect((await call(t.app, admin, 'GET', restrictedUrl)).json()).toBe(true);

    const second = freshPassword();
    const young = await call(t.app, s, 'POST', CHANGE, { currentPassword: first, newPassword: second });
    expect(young.statusCode).toBe(422);
    expect(young.json()).toEqual({ fieldErrors: {}, globalErrors: [], failureDescription: rules.minAge!.text });

    // Admin-path calls need ADMIN (000 §6 "Admin-only calls sit under an admin path").
    const reviewer = await signIn(t.app, 'reviewer', demo('reviewer'));
    expect((await call(t.app, reviewer, 'GET', restrictedUrl)).statusCode).toBe(403);
    expect((await call(t.app, reviewer, 'POST', clearUrl, {})).statusCode).toBe(403);
    expect(
      (
        await call(
          t.app,
          admin,
          'GET',
          '/rest/secure/admin/user_management/isUserCurrentlyRestrictedByAllowChangeTime/nope',
        )
      ).statusCode,
    ).toBe(422);

    expect((await call(t.app, admin, 'POST', clearUrl, {})).statusCode).toBe(200);
    expect((await call(t.app, admin, 'GET', restrictedUrl)).json()).toBe(false);
    const audit = await t.prisma.auditEvent.findMany({
      where: { entityType: 'PortalUser', entityId: String(u.user.id) },
      orderBy: { id: 'asc' },
    });
    expect(audit.map((a) => [a.action, a.actorUsername])).toEqual([
      ['PASSWORD_CHANGED', u.username],
      ['PASSWORD_CHANGE_RESTRICTION_CLEARED', 'admin'],
    ]);
    expect(JSON.stringify(audit.map((a) => [a.before, a.after]))).not.toContain(first);
    expect(await caps(s)).toEqual([true, true]);
    expect(await restriction(s)).toEqual({ canChangeNow: true, changeAllowedFrom: null });

    // slapd's history refuses the first password again (pwdInHistory), with the rule's text.
    const back = await call(t.app, s, 'POST', CHANGE, { currentPassword: first, newPassword: u.password });
    expect(back.statusCode).toBe(422);
    expect(back.json().fieldErrors).toEqual({ newPassword: [rules.history!.text] });
    expect((await call(t.app, s, 'POST', CHANGE, { currentPassword: first, newPassword: second })).statusCode).toBe(
      200,
    );
  });

  it('ends the other sessions of the user after a change', async () => {
    const u = await createTestUser(t, 'others');
    const mine = await signIn(t.app, u.username, u.password);
    const other = await signIn(t.app, u.username, u.password);
    const res = await call(t.app, mine, 'POST', CHANGE, { currentPassword: u.password, newPassword: freshPassword() });
    expect(res.statusCode).toBe(200);
    expect((await call(t.app, mine, 'GET', '/rest/secure/token/refresh')).statusCode).toBe(200);
    expect((await call(t.app, other, 'GET', '/rest/secure/token/refresh')).statusCode).toBe(401);
  });
});

describe('user-management password capabilities (000 §7; READ_USERS)', () => {
  it("answers 'ever' and hasSetInitialPassword for a user, and denies them without READ_USERS", async () => {
    const withPw = await createTestUser(t, 'cap');
    const noPw = await createTestUser(t, 'nopw', { password: null });
    const noEntry = await createTestUser(t, 'noentry', { withEntry: false });
    const readonly = await signIn(t.app, 'readonly', demo('readonly'));
    const ever = (id: number) =>
      call(t.app, readonly, 'GET', `/rest/secure/user_management/can_change_password_ever/${id}`);
    const initial = (id: number) =>
      call(t.app, readonly, 'GET', `/rest/secure/user_management/hasSetInitialPassword/${id}`);
    expect((await ever(withPw.user.id)).json()).toBe(true);
    expect((await ever(noEntry.user.id)).json()).toBe(false);
    expect((await initial(withPw.user.id)).json()).toBe(true);
    expect((await initial(noPw.user.id)).json()).toBe(false);
    expect((await ever(99_999_999)).statusCode).toBe(404);
    expect((await ever(99_999_999)).json()).toEqual({ message: 'Unable to load the specified user.' });
    expect(
      (await call(t.app, readonly, 'GET', '/rest/secure/user_management/hasSetInitialPassword/abc')).json(),
    ).toEqual({
      fieldErrors: { id: ['invalid'] },
      globalErrors: [],
    });

    const user = await signIn(t.app, 'user', demo('user'));
    const denied = await call(
      t.app,
      user,
      'GET',
      `/rest/secure/user_management/can_change_password_ever/${withPw.user.id}`,
    );
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ message: 'You are not authorized to view this page' });
    expect(
      (await call(t.app, user, 'GET', `/rest/secure/user_management/hasSetInitialPassword/${noPw.user.id}`)).statusCode,
    ).toBe(403);
  });

  it('refuses a change for a user whose password the portal does not manage', async () => {
    const u = await createTestUser(t, 'managed');
    const s = await signIn(t.app, u.username, u.password);
    await t.prisma.portalUser.update({ where: { id: u.user.id }, data: { uuid: null, username: `${u.username}x` } });
    const res = await call(t.app, s, 'POST', CHANGE, { currentPassword: u.password, newPassword: freshPassword() });
    expect(res.statusCode).toBe(403);
    expect((await call(t.app, s, 'GET', '/rest/secure/user_capabilities/can_change_password_ever')).json()).toBe(false);
  });
});

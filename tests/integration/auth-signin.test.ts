/**
 * Sign-in against the real slapd with its ppolicy (000 §3 Sign-in response, §4 Sign-in / Password expiry,
 * §8 Sign-in): every failure flag with its text, a lockout run, the expiry states (warn, forced by age or by
 * an administrator's reset, expired beyond the grace sign-ins) and what a forced-change session may do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES, MESSAGES } from '@portal/contract';
import { setPassword, setPasswordChangedTime } from '@portal/directory';
import {
  buildTestApp,
  call,
  createTestUser,
  DAY_MS,
  freshPassword,
  signIn,
  signInCall,
  type TestApp,
} from './auth-helpers';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});

afterAll(async () => {
  await t?.close();
});

describe('sign-in failure flags (000 §3, §8)', () => {
  it('counts failures down, warns under 3 attempts, locks after 5 and keeps the account locked', async () => {
    const u = await createTestUser(t, 'lock');
    const left: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await signInCall(t.app, u.username, 'Wrong-Password-1!');
      expect(res.statusCode).toBe(401);
      const body = res.json();
      expect(body.credentialsInvalid).toBe(true);
      left.push(body.attemptsLeftUntilLocked);
      expect(body.message).toBe(
        body.attemptsLeftUntilLocked < 3
          ? `${MESSAGES.signIn.credentialsInvalid} ${MESSAGES.signIn.lockoutWarning(body.attemptsLeftUntilLocked)}`
          : MESSAGES.signIn.credentialsInvalid,
      );
    }
    expect(left).toEqual([4, 3, 2, 1]);
    expect(left.map((n) => n < 3)).toEqual([false, false, true, true]);

    const fifth = await signInCall(t.app, u.username, 'Wrong-Password-1!');
    expect(fifth.statusCode).toBe(401);
    expect(fifth.json()).toEqual({ accountLocked: true, message: MESSAGES.signIn.accountLocked });
    const right = await signInCall(t.app, u.email, u.password);
    expect(right.json()).toEqual({ accountLocked: true, message: MESSAGES.signIn.accountLocked });
  });

  it('answers an inactive portal user with accountDisabled, but only after the password matched', async () => {
    const u = await createTestUser(t, 'off', { inactive: true });
    const wrong = await signInCall(t.app, u.username, 'Not-The-Password-1!');
    expect(wrong.json()).toMatchObject({ credentialsInvalid: true });
    const right = await signInCall(t.app, u.username, u.password);
    expect(right.statusCode).toBe(401);
    expect(right.json()).toEqual({ accountDisabled: true, message: MESSAGES.signIn.accountDisabled });
  });

  it('answers unspecifiedFailure (503) when the directory cannot be reached', async () => {
    const broken = await buildTestApp({ LDAP_URL: 'ldap://127.0.0.1:9' });
    try {
      const res = await signInCall(broken.app, 'user', 'User-Demo-2026!');
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ unspecifiedFailure: true, message: MESSAGES.signIn.unspecifiedFailure });
      expect(res.body).not.toMatch(/at .*\.(ts|js):\d+/);
    } finally {
      await broken.close();
    }
  });

  it('answers credentialsInvalid for an entry whose initial password was never set', async () => {
    const u = await createTestUser(t, 'nopw', { password: null });
    const res = await signInCall(t.app, u.username, 'Any-Password-2026!');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ credentialsInvalid: true, message: MESSAGES.signIn.credentialsInvalid });
  });

  it('treats a directory entry without a portal user as unspecifiedFailure', async () => {
    const u = await createTestUser(t, 'orphan');
    await t.prisma.portalUser.delete({ where: { id: u.user.id } });
    const res = await signInCall(t.app, u.username, u.password);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ unspecifiedFailure: true, message: MESSAGES.signIn.unspecifiedFailure });
  });
});

describe('password expiry at sign-in (000 §4, ppolicy pwdMaxAge / pwdExpireWarning / pwdReset)', () => {
  it('signs in without expiry state while the password is fresh', async () => {
    const u = await createTestUser(t, 'fresh');
    const s = await signIn(t.app, u.username, u.password);
    expect(s.body).toEqual({ tokenTimeoutInSeconds: 3600, passwordExpiresSoon: false, xsrfToken: expect.any(String) });
  });

  it('warns inside the expiry-warning window and leaves the session unrestricted', async () => {
    const u = await createTestUser(t, 'warn');
    await setPasswordChangedTime(t.directory, u.username, new Date(Date.now() - 80 * DAY_MS));
    const s = await signIn(t.app, u.username, u.password);
    expect(s.body).toMatchObject({ passwordExpiresSoon: true, expiryState: 'WarnUserToChangePassword' });
    expect((await call(t.app, s, 'GET', '/rest/secure/user_profile')).statusCode).toBe(200);
  });

  it('forces a change of an expired password: the session may only change it, then signs in normally', async () => {
    const u = await createTestUser(t, 'exp');
    await setPasswordChangedTime(t.directory, u.username, new Date(Date.now() - 95 * DAY_MS));
    const s = await signIn(t.app, u.username, u.password);
    expect(s.body).toMatchObject({ passwordExpiresSoon: true, expiryState: 'ForceUserToChangePassword' });

    const profile = await call(t.app, s, 'GET', '/rest/secure/user_profile');
    expect(profile.statusCode).toBe(403);
    expect(profile.json()).toEqual({ message: AUTH_MESSAGES.expiredBanner });
    expect((await call(t.app, s, 'GET', '/rest/secure/user_capabilities/granted_permissions')).json()).toEqual([
      'SET_OWN_PASSWORD',
    ]);
    expect((await call(t.app, s, 'GET', '/rest/secure/user_capabilities/can_change_password_now')).json()).toBe(true);
    // The Change Password page reads the restriction too; docs/api.md allows all of user_capabilities/*.
    const restriction = await call(t.app, s, 'GET', '/rest/secure/user_capabilities/password_change_restriction');
    expect(restriction.statusCode, restriction.body).toBe(200);
    expect(restriction.json()).toEqual({ canChangeNow: true, changeAllowedFrom: null });
    expect((await call(t.app, s, 'GET', '/rest/secure/token/refresh')).statusCode).toBe(200);

    const next = freshPassword();
    const changed = await call(t.app, s, 'POST', '/rest/secure/change_password/attempt', {
      currentPassword: u.password,
      newPassword: next,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    // The same session is no longer limited; signing in again with the new password is a normal sign-in.
    expect((await call(t.app, s, 'GET', '/rest/secure/user_profile')).statusCode).toBe(200);
    const again = await signIn(t.app, u.username, next);
    expect(again.body).toMatchObject({ passwordExpiresSoon: false });
    expect((await signInCall(t.app, u.username, u.password)).json()).toMatchObject({ credentialsInvalid: true });
  });

  it('answers passwordExpired once the grace sign-ins are used up', async () => {
    const u = await createTestUser(t, 'grace');
    await setPasswordChangedTime(t.directory, u.username, new Date(Date.now() - 120 * DAY_MS));
    for (let i = 0; i < 3; i++) {
      const s = await signIn(t.app, u.username, u.password);
      expect(s.body.expiryState).toBe('ForceUserToChangePassword');
    }
    const res = await signInCall(t.app, u.username, u.password);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ passwordExpired: true, message: MESSAGES.signIn.passwordExpired });
    // A wrong password is still just a wrong password.
    expect((await signInCall(t.app, u.username, 'Wrong-Password-1!')).json()).toMatchObject({
      credentialsInvalid: true,
    });
  });

  it("forces a change after an administrator's reset (ppolicy pwdMustChange / pwdReset)", async () => {
    const u = await createTestUser(t, 'reset');
    const temporary = freshPassword();
    await setPassword(t.directory, u.username, temporary);
    const s = await signIn(t.app, u.username, temporary);
    expect(s.body).toMatchObject({ passwordExpiresSoon: true, expiryState: 'ForceUserToChangePassword' });
    const changed = await call(t.app, s, 'POST', '/rest/secure/change_password/attempt', {
      currentPassword: temporary,
      newPassword: freshPassword(),
    });
    expect(changed.statusCode, changed.body).toBe(200);
  });
});

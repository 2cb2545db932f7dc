/**
 * Forgot Password and the emailed set-initial / reset links (000 §2 Forgot / Set Password, §5 Reset, §7,
 * §8 Passwords) with the real SMTP catcher: the same answer for known and unknown addresses, single-use and
 * expiring hashes stored only as digests, the rules and the history enforced, and the initial-mail resend
 * (WRITE_USERS).
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES, MESSAGES } from '@portal/contract';
import { DEMO_ACCOUNTS } from '@portal/db/seed';
import { buildTestApp, call, createTestUser, freshPassword, signIn, signInCall, type TestApp } from './auth-helpers';
import { readMail } from '@portal/scripts';
import { stackEnv, waitForMail } from './fixtures';

let t: TestApp;
const demo = (username: string) => DEMO_ACCOUNTS.find((a) => a.username === username)!.password;

beforeAll(async () => {
  // Many forgot-password calls from one address: the limit itself is tested in auth-session.test.ts.
  t = await buildTestApp({ RATE_LIMIT_FORGOT_PASSWORD_MAX: '1000' });
});

afterAll(async () => {
  await t?.close();
});

const forgot = (emailAddress: unknown) =>
  t.app.inject({ method: 'POST', url: '/rest/public/forgot_password', payload: { emailAddress } });

/** The hash in the last link mail to `to`. */
async function linkFrom(to: string, subject: string, route: string): Promise<string> {
  const mail = await waitForMail(to, subject);
  const match = new RegExp(`/${route}/([A-Za-z0-9_-]{43})`).exec(mail.text ?? '');
  expect(match, mail.text).not.toBeNull();
  return match![1]!;
}

describe('forgot password (000 §7 forgot_password)', () => {
  it('answers the same for a known and an unknown address, and mails only the known one', async () => {
    const u = await createTestUser(t, 'forgot');
    const nobody = `nobody-${Date.now()}@example.org`;
    const known = await forgot(u.email.toUpperCase());
    const unknown = await forgot(nobody);
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.body).toBe(unknown.body);
    const hash = await linkFrom(u.email, 'reset your password', 'reset-password');
    const row = await t.prisma.passwordLink.findFirstOrThrow({ where: { portalUserId: u.user.id } });
    expect(row.digest).toBe(crypto.createHash('sha256').update(hash).digest('hex'));
    expect(row.digest).not.toContain(hash);
    const caught = await readMail(stackEnv().MAIL_API_URL!);
    expect(caught.some((m) => m.to.some((to) => to.address === nobody))).toBe(false);
  });

  it('answers bad addresses with 422 fieldErrors.emailAddress', async () => {
    expect((await forgot('')).json()).toEqual({ fieldErrors: { emailAddress: ['required'] }, globalErrors: [] });
    expect((await forgot('not-an-address')).json()).toEqual({
      fieldErrors: { emailAddress: ['validEmail'] },
      globalErrors: [],
    });
  });
});

describe('reset link (000 §7 reset_password)', () => {
  it('checks the rules and the history, sets the password once, ends sessions and unlocks; a reused hash fails', async () => {
    const u = await createTestUser(t, 'reset');
    const before = await signIn(t.app, u.username, u.password);
    for (let i = 0; i < 5; i++) await signInCall(t.app, u.username, 'Wrong-Password-1!');
    expect((await signInCall(t.app, u.username, u.password)).json()).toMatchObject({ accountLocked: true });

    await forgot(u.email);
    const hash = await linkFrom(u.email, 'reset your password', 'reset-password');
    const check = (h: string) => t.app.inject({ method: 'GET', url: `/rest/public/reset_password/${h}` });
    const post = (password: string, h = hash) =>
      t.app.inject({ method: 'POST', url: '/rest/public/reset_password', payload: { hash: h, password } });
    expect((await check(hash)).json()).toBe(true);
    // A reset hash is no set-initial hash.
    expect((await t.app.inject({ method: 'GET', url: `/rest/public/set_initial_password/${hash}` })).json()).toBe(
      false,
    );

    const weak = await post('weakpassword');
    expect(weak.statusCode).toBe(422);
    expect(Object.keys(weak.json().fieldErrors)).toEqual(['password']);
    const reused = await post(u.password);
    expect(reused.json()).toEqual({ fieldErrors: { password: [expect.stringContaining('last 5')] }, globalErrors: [] });
    expect((await check(hash)).json()).toBe(true);

    const next = freshPassword();
    expect((await post(next)).statusCode).toBe(200);
    expect((await call(t.app, before, 'GET', '/rest/secure/token/refresh')).statusCode).toBe(401);
    const s = await signIn(t.app, u.username, next);
    expect(s.body.passwordExpiresSoon).toBe(false);

    expect((await check(hash)).json()).toBe(false);
    const again = await post(freshPassword());
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual({ fieldErrors: {}, globalErrors: [], failureDescription: AUTH_MESSAGES.badResetLink });
  });

  it('refuses an expired, an unknown and a malformed hash', async () => {
    const u = await createTestUser(t, 'expire');
    await forgot(u.email);
    const hash = await linkFrom(u.email, 'reset your password', 'reset-password');
    await t.prisma.passwordLink.updateMany({
      where: { portalUserId: u.user.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await t.app.inject({ method: 'GET', url: `/rest/public/reset_password/${hash}` })).json()).toBe(false);
    const expired = await t.app.inject({
      method: 'POST',
      url: '/rest/public/reset_password',
      payload: { hash, password: freshPassword() },
    });
    expect(expired.json().failureDescription).toBe(AUTH_MESSAGES.badResetLink);
    const unknown = crypto.randomBytes(32).toString('base64url');
    expect((await t.app.inject({ method: 'GET', url: `/rest/public/reset_password/${unknown}` })).json()).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: '/rest/public/reset_password/short' })).json()).toBe(false);
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/rest/public/set_initial_password',
      payload: { hash: 'short', password: '' },
    });
    expect(malformed.json()).toEqual({ fieldErrors: { hash: ['invalid'], password: ['required'] }, globalErrors: [] });
    expect((await signInCall(t.app, u.username, u.password)).statusCode).toBe(200);
  });

  it('revokes the older link when a newer one is issued', async () => {
    const u = await createTestUser(t, 'twice');
    await forgot(u.email);
    const first = await linkFrom(u.email, 'reset your password', 'reset-password');
    await forgot(u.email);
    await expect
      .poll(async () => t.prisma.passwordLink.count({ where: { portalUserId: u.user.id } }), { timeout: 10_000 })
      .toBe(2);
    expect((await t.app.inject({ method: 'GET', url: `/rest/public/reset_password/${first}` })).json()).toBe(false);
  });
});

describe('initial password (000 §7 set_initial_password, set_initial_password/resend; §8 resend texts)', () => {
  it('resends the initial mail (WRITE_USERS) and sets the first password through it', async () => {
    const u = await createTestUser(t, 'init', { password: null });
    const readonly = await signIn(t.app, 'readonly', demo('readonly'));
    const denied = await call(t.app, readonly, 'POST', `/rest/secure/set_initial_password/resend/${u.user.id}`, {});
    expect(denied.statusCode).toBe(403);

    const reviewer = await signIn(t.app, 'reviewer', demo('reviewer'));
    const sent = await call(t.app, reviewer, 'POST', `/rest/secure/set_initial_password/resend/${u.user.id}`, {});
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ message: AUTH_MESSAGES.resend.sent });
    const hash = await linkFrom(u.email, 'set your password', 'set-initial-password');
    expect((await t.app.inject({ method: 'GET', url: `/rest/public/set_initial_password/${hash}` })).json()).toBe(true);
    const password = freshPassword();
    const set = await t.app.inject({
      method: 'POST',
      url: '/rest/public/set_initial_password',
      payload: { hash, password },
    });
    expect(set.statusCode).toBe(200);
    const s = await signIn(t.app, u.username, password);
    expect(s.body).toMatchObject({ passwordExpiresSoon: false });

    const audit = await t.prisma.auditEvent.findMany({
      where: { entityType: 'PortalUser', entityId: String(u.user.id) },
      orderBy: { id: 'asc' },
    });
    expect(audit.map((a) => [a.action, a.actorUsername])).toEqual([
      ['INITIAL_PASSWORD_EMAIL_SENT', 'reviewer'],
      ['PASSWORD_SET_INITIAL', u.username],
    ]);
    const already = await call(t.app, reviewer, 'POST', `/rest/secure/set_initial_password/resend/${u.user.id}`, {});
    expect(already.statusCode).toBe(409);
    expect(already.json()).toEqual({ message: AUTH_MESSAGES.resend.alreadySet });
  });

  it('does not send it to a user who may not change their password (000 §5)', async () => {
    const u = await createTestUser(t, 'noldap', { withEntry: false });
    const reviewer = await signIn(t.app, 'reviewer', demo('reviewer'));
    const res = await call(t.app, reviewer, 'POST', `/rest/secure/set_initial_password/resend/${u.user.id}`, {});
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: AUTH_MESSAGES.resend.notPermitted });
    const missing = await call(t.app, reviewer, 'POST', '/rest/secure/set_initial_password/resend/99999999', {});
    expect(missing.statusCode).toBe(404);
  });

  it('sends nothing for an inactive user, and a link of an inactive user no longer works', async () => {
    const u = await createTestUser(t, 'gone');
    await forgot(u.email);
    const hash = await linkFrom(u.email, 'reset your password', 'reset-password');
    await t.prisma.portalUser.update({ where: { id: u.user.id }, data: { inactive: true } });
    expect((await t.app.inject({ method: 'GET', url: `/rest/public/reset_password/${hash}` })).json()).toBe(false);
    expect((await signInCall(t.app, u.username, u.password)).json()).toEqual({
      accountDisabled: true,
      message: MESSAGES.signIn.accountDisabled,
    });
  });
});

/**
 * Account enumeration (issue 13; 000 §8 Sign-in, 000 §7 forgot_password): a known username with wrong
 * passwords and an unknown one get the same statuses and bodies through the countdown, the lock and after
 * it; the unknown name's count is kept by digest only, expires, and the table is capped. Forgot Password
 * answers a known and an unknown address alike. Record-level refusals answer like unknown records.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/contract';
import { buildTestApp, call, createTestUser, signIn, signInCall, type TestApp } from '../auth-helpers';
import { createOutstandingRequest } from '../config-support';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SIGN_IN_MAX: '1000', RATE_LIMIT_FORGOT_PASSWORD_MAX: '1000' });
});

afterAll(async () => {
  await t?.close();
});

const unknownName = () => `nobody-${crypto.randomBytes(5).toString('hex')}`;

/** Status and body of `n` failed sign-ins as `login`. */
async function failures(login: string, n: number, password = 'Wrong-Password-1!') {
  const answers: Array<{ status: number; body: unknown }> = [];
  for (let i = 0; i < n; i++) {
    const res = await signInCall(t.app, login, password);
    answers.push({ status: res.statusCode, body: res.json() });
  }
  return answers;
}

describe('sign-in tells no accounts apart', () => {
  it('answers a known and an unknown username alike through five failures, the lock and after it', async () => {
    const known = await createTestUser(t, 'enum');
    const unknown = unknownName();
    const a = await failures(known.username, 7);
    const b = await failures(unknown, 7);
    expect(b).toEqual(a);
    expect(a.map((x) => x.status)).toEqual([401, 401, 401, 401, 401, 401, 401]);
    expect(a.map((x) => (x.body as { attemptsLeftUntilLocked?: number }).attemptsLeftUntilLocked)).toEqual([
      4,
      3,
      2,
      1,
      undefined,
      undefined,
      undefined,
    ]);
    expect(a[2]!.body).toEqual({
      credentialsInvalid: true,
      attemptsLeftUntilLocked: 2,
      message: `${MESSAGES.signIn.credentialsInvalid} ${MESSAGES.signIn.lockoutWarning(2)}`,
    });
    expect(a[4]!.body).toEqual({ accountLocked: true, message: MESSAGES.signIn.accountLocked });
    // Locked is locked for any password, the right one included.
    expect((await signInCall(t.app, known.username, known.password)).json()).toEqual(a[4]!.body);
    expect((await signInCall(t.app, unknown, known.password)).json()).toEqual(a[4]!.body);
  });

  it('counts an unknown name however it is spelled, and keeps only its digest', async () => {
    const name = unknownName();
    await failures(name, 1);
    const second = await signInCall(t.app, `  ${name.toUpperCase()} `, 'x');
    expect(second.json()).toMatchObject({ attemptsLeftUntilLocked: 3 });
    const rows = await t.prisma.unknownSignInFailure.findMany();
    expect(JSON.stringify(rows)).not.toContain(name);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.digest))).toBe(true);
  });

  it('forgets an unknown name after its expiry, and never keeps more names than the cap', async () => {
    const name = unknownName();
    await failures(name, 2);
    await t.prisma.unknownSignInFailure.updateMany({ data: { lastFailedAt: new Date(Date.now() - 31 * 86_400_000) } });
    expect((await signInCall(t.app, name, 'x')).json()).toMatchObject({ attemptsLeftUntilLocked: 4 });

    const capped = await buildTestApp({ SIGN_IN_UNKNOWN_MAX_NAMES: '3', RATE_LIMIT_SIGN_IN_MAX: '1000' });
    try {
      for (let i = 0; i < 6; i++) await signInCall(capped.app, unknownName(), 'x');
      expect(await capped.prisma.unknownSignInFailure.count()).toBeLessThanOrEqual(3);
    } finally {
      await capped.close();
    }
  });

  it('answers a wrong type or a NUL in the username with 422, never by looking it up', async () => {
    const nul = await signInCall(t.app, 'admin\u0000', 'x');
    expect(nul.statusCode).toBe(422);
    expect(nul.json()).toEqual({ fieldErrors: { username: ['encoding:U+0000:6'] }, globalErrors: [] });
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/rest/token/create',
      payload: { username: ['admin'], password: 1 },
    });
    expect(wrong.json()).toEqual({ fieldErrors: { username: ['invalid'], password: ['invalid'] }, globalErrors: [] });
  });
});

describe('forgot password tells no addresses apart', () => {
  it('answers a known and an unknown address with the same status and body', async () => {
    const known = await createTestUser(t, 'forgot');
    const send = (emailAddress: string) =>
      t.app.inject({ method: 'POST', url: '/rest/public/forgot_password', payload: { emailAddress } });
    const [a, b] = [await send(known.email), await send(`${unknownName()}@example.org`)];
    expect([a.statusCode, a.body]).toEqual([b.statusCode, b.body]);
    expect(a.statusCode).toBe(200);
  });
});

describe('records tell no existence apart', () => {
  it("answers another user's request exactly like an unknown one (404 and the screen's text)", async () => {
    const owner = await createTestUser(t, 'owner');
    const other = await createTestUser(t, 'other');
    const row = await createOutstandingRequest(t.prisma, owner.user.id, {
      roleName: 'Data Manager',
      systemAccessIds: [],
    });
    const s = await signIn(t.app, other.username, other.password);
    const mine = await call(t.app, s, 'GET', `/rest/secure/user_access_mod_request/${row.id}`);
    const none = await call(t.app, s, 'GET', '/rest/secure/user_access_mod_request/2147483647');
    expect(mine.statusCode).toBe(404);
    expect([mine.statusCode, mine.body]).toEqual([none.statusCode, none.body]);
    expect(mine.json()).toEqual({ message: MESSAGES.access.loadRequestsFailed });
    const ownerSession = await signIn(t.app, owner.username, owner.password);
    expect((await call(t.app, ownerSession, 'GET', `/rest/secure/user_access_mod_request/${row.id}`)).statusCode).toBe(
      200,
    );
  });
});

/**
 * The sign-in's second step (issue 37; docs/decisions.md "Second factors") through the API's routes on the
 * real PostgreSQL and slapd:
 * - a person without a second factor gets exactly 000 §3's answer;
 * - a person with one gets `secondFactor: { methods }` and a session that may call only the second step;
 * - an authenticator app's code or a recovery code takes the step; a code is not accepted twice, also not by a
 *   second API process;
 * - wrong codes answer 000 §3's flags with 000 §8's texts and the attempts left, are counted across sign-ins,
 *   and at the policy's pwdMaxFailure lock the directory entry and end the session;
 * - a step not taken within its window ends the session.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARGON2_DEFAULTS, DEFAULT_PASSWORD_POLICY, findPerson } from '@portal/directory';
import { MESSAGES } from '@portal/contract';
import { totpCode } from '../../../api/src/auth/totp';
import { issueRecoveryCodes } from '../../../api/src/auth/recovery-codes';
import { createTestUser, type TestUser } from '../auth-helpers';
import { type Session, type TestApi, caller, signInCall, startApi } from '../harness';
import { until } from '../lifecycle/support';
import { enrolConfirmed } from '../../support/totp-codes';

const KEY = crypto.randomBytes(32).toString('base64url');
let api: TestApi;
let second: TestApi;

beforeAll(async () => {
  [api, second] = await Promise.all([startApi({ SECOND_FACTOR_KEY: KEY }), startApi({ SECOND_FACTOR_KEY: KEY })]);
});
afterAll(async () => {
  await Promise.all([api?.close(), second?.close()]);
});

/** A person with a confirmed authenticator app. @returns the person and the app's secret. */
async function withApp(tag: string): Promise<{ user: TestUser; secret: string }> {
  const user = await createTestUser(api, tag);
  // Confirmed with no code used: the sign-in takes the current one (support/totp-codes.ts).
  const enrolment = await enrolConfirmed(api.prisma, KEY, user.user, 'Phone');
  return { user, secret: enrolment.secret };
}

/** Signs in with the password on `app`. @returns the session and the answer's body. */
async function passwordStep(app: TestApi, user: TestUser): Promise<Session> {
  const res = await signInCall(app.app, user.username, user.password);
  expect(res.statusCode, res.body).toBe(200);
  const cookie = res.cookies.find((c) => c.name === 'pg_session')!;
  return { cookie: `pg_session=${cookie.value}`, xsrf: res.json().xsrfToken, body: res.json() };
}

const step = (app: TestApi, s: Session, body: object) =>
  caller(app.app)(s, 'POST', '/rest/secure/token/second_factor', body);

describe('a person without a second factor', () => {
  it("gets exactly 000 §3's answer, and the second step is not theirs to call", async () => {
    const user = await createTestUser(api, 'sfnone');
    const s = await passwordStep(api, user);
    expect(Object.keys(s.body).sort()).toEqual(['passwordExpiresSoon', 'tokenTimeoutInSeconds', 'xsrfToken']);
    expect((await step(api, s, { code: '123456' })).statusCode).toBe(403);
    expect((await caller(api.app)(s, 'GET', '/rest/secure/user_profile')).statusCode).toBe(200);
  });
});

describe('a person with an authenticator app', () => {
  it('is limited to the second step until a code takes it; the code is not accepted again elsewhere', async () => {
    const { user, secret } = await withApp('sfapp');
    const s = await passwordStep(api, user);
    expect(s.body).toMatchObject({ secondFactor: { methods: ['TOTP'] } });
    expect((await caller(api.app)(s, 'GET', '/rest/secure/user_profile')).statusCode).toBe(403);
    expect((await caller(api.app)(s, 'GET', '/rest/secure/user_capabilities/granted_permissions')).statusCode).toBe(
      403,
    );

    const code = await totpCode(secret);
    const taken = await step(api, s, { code });
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json()).toMatchObject({ passwordExpiresSoon: false });
    expect((await caller(api.app)(s, 'GET', '/rest/secure/user_profile')).statusCode).toBe(200);
    // Once taken, the step is a step-up of a full session (a study system's demand): the used code is refused.
    const reused = await step(api, s, { code });
    expect(reused.statusCode).toBe(401);
    expect(reused.json()).toMatchObject({ credentialsInvalid: true });
    expect((await caller(api.app)(s, 'GET', '/rest/secure/user_profile')).statusCode).toBe(200);

    // The same code on another API process, in another sign-in: refused.
    const again = await passwordStep(second, user);
    const replayed = await step(second, again, { code });
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json()).toMatchObject({ credentialsInvalid: true });
    expect((await caller(second.app)(again, 'GET', '/rest/secure/user_profile')).statusCode).toBe(403);
  });

  it('takes the step with a recovery code once', async () => {
    const { user } = await withApp('sfrec');
    const [code] = await issueRecoveryCodes(api.prisma, user.user.id, ARGON2_DEFAULTS);
    const s = await passwordStep(api, user);
    expect(s.body).toMatchObject({ secondFactor: { methods: ['TOTP', 'RECOVERY_CODE'] } });
    expect((await step(api, s, { recoveryCode: code })).statusCode).toBe(200);
    const again = await passwordStep(api, user);
    expect((await step(api, again, { recoveryCode: code })).statusCode).toBe(401);
  });

  it('answers 422 to a body that is neither a code nor a recovery code', async () => {
    const { user } = await withApp('sfbad');
    const s = await passwordStep(api, user);
    for (const body of [{}, { code: 'x'.repeat(40) }, { code: '1', recoveryCode: '2' }, { other: 1 }]) {
      const res = await step(api, s, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.body).not.toMatch(/at .*\.(ts|js):\d+/);
    }
  });

  it('counts wrong codes across sign-ins and locks the entry at the policy maximum', async () => {
    const { user } = await withApp('sflock');
    const max = DEFAULT_PASSWORD_POLICY.maxFailure;
    let s = await passwordStep(api, user);
    for (let failure = 1; failure < max; failure++) {
      // A new sign-in halfway: the password's success does not reset the count.
      if (failure === 2) s = await passwordStep(api, user);
      const res = await step(api, s, { code: '000000' });
      expect(res.statusCode).toBe(401);
      const left = max - failure;
      expect(res.json()).toMatchObject({ credentialsInvalid: true, attemptsLeftUntilLocked: left });
      if (left < 3)
        expect(res.json().message).toBe(
          `${MESSAGES.signIn.credentialsInvalid} ${MESSAGES.signIn.lockoutWarning(left)}`,
        );
    }
    const last = await step(api, s, { code: '000000' });
    expect(last.statusCode).toBe(401);
    expect(last.json()).toMatchObject({ accountLocked: true, message: MESSAGES.signIn.accountLocked });
    expect((await findPerson(api.directory, user.username))?.lockedTime).toBeTruthy();
    expect((await caller(api.app)(s, 'GET', '/rest/secure/token/refresh')).statusCode).toBe(401);
    const locked = await signInCall(api.app, user.username, user.password);
    expect(locked.statusCode).toBe(401);
    expect(locked.json()).toMatchObject({ accountLocked: true });
  });

  it('ends the session when the step is not taken within its window', async () => {
    const { user, secret } = await withApp('sflate');
    const s = await passwordStep(api, user);
    await api.prisma.session.updateMany({
      where: { portalUserId: user.user.id },
      data: { secondFactorDueBy: new Date(Date.now() - 1000) },
    });
    // The row's change reaches the session cache by notification: wait for it (403 while still waiting for
    // the step, 401 once the window has passed), then the step itself is refused.
    await until(
      async () => (await caller(api.app)(s, 'GET', '/rest/secure/token/refresh')).statusCode === 401,
      'the late session ended',
    );
    expect((await step(api, s, { code: await totpCode(secret) })).statusCode).toBe(401);
  });
});

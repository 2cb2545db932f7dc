/**
 * Enrolling second factors through the API's routes (issue 37; docs/decisions.md "Second factors"), on the real
 * PostgreSQL, slapd and SMTP catcher:
 * - adding an authenticator app asks for the password again; the secret is answered once with its QR code;
 * - the first factor is confirmed by the link mailed to the person (a stolen password alone enrols nothing),
 *   which issues the recovery codes; a further one signs in at once; every change is audited and mailed;
 * - the last factor cannot be removed; recovery codes are issued again with the password;
 * - a person who must use a second factor signs in to a session that may only enrol one, until it does;
 * - READ_USERS sees the kinds, never a secret; an ADMIN resets them (audited, mailed, sessions ended), and the
 *   next enrolment is a first one again; the denials are tested too.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECOND_FACTOR_TEXTS as T } from '@portal/contract';
import { currentCode, nextStepCode } from '../../support/totp-codes';
import { createTestUser, type TestUser } from '../auth-helpers';
import { waitForMail } from '../fixtures';
import { type Session, type TestApi, caller, signInCall, startApi } from '../harness';

const KEY = crypto.randomBytes(32).toString('base64url');
let api: TestApi;
/** An API whose READ_USERS holders (and so WRITE_USERS and ADMIN) must use a second factor. */
let obliging: TestApi;

beforeAll(async () => {
  [api, obliging] = await Promise.all([
    startApi({ SECOND_FACTOR_KEY: KEY }),
    startApi({ SECOND_FACTOR_KEY: KEY, SECOND_FACTOR_REQUIRED_PERMISSIONS: 'READ_USERS' }),
  ]);
});
afterAll(async () => {
  await Promise.all([api?.close(), obliging?.close()]);
});

async function signedIn(app: TestApi, user: TestUser): Promise<Session & { body: Record<string, unknown> }> {
  const res = await signInCall(app.app, user.username, user.password);
  expect(res.statusCode, res.body).toBe(200);
  const cookie = res.cookies.find((c) => c.name === 'pg_session')!;
  return { cookie: `pg_session=${cookie.value}`, xsrf: res.json().xsrfToken, body: res.json() };
}

const call = (app: TestApi, s: Session, method: 'GET' | 'POST', url: string, body?: object) =>
  caller(app.app)(s, method, url, body);

/** The token of the confirmation link in the person's latest confirmation mail. */
async function mailedToken(email: string): Promise<string> {
  const mail = await waitForMail(email, T.mailSubjectConfirm);
  const token = /\/app\/confirm-sign-in-method\/([A-Za-z0-9_-]+)/.exec(mail.text ?? '')?.[1];
  expect(token, mail.text).toBeTruthy();
  return token!;
}

const audits = (t: TestApi, userId: number) =>
  t.prisma.auditEvent.findMany({
    where: { entityType: 'PortalUser', entityId: String(userId) },
    orderBy: { id: 'asc' },
  });

/** Adds an authenticator app through the routes up to its proven code. @returns the secret and the answer. */
async function addApp(app: TestApi, s: Session, user: TestUser, label = 'Phone') {
  const begun = await call(app, s, 'POST', '/rest/secure/second_factor/totp', { password: user.password, label });
  expect(begun.statusCode, begun.body).toBe(200);
  const { factorId, secret, uri, qrSvg } = begun.json();
  expect(uri).toMatch(/^otpauth:\/\/totp\//);
  expect(qrSvg).toMatch(/^<svg/);
  const confirmed = await call(app, s, 'POST', `/rest/secure/second_factor/totp/${factorId}/confirm`, {
    code: await currentCode(secret),
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return { secret, factorId: factorId as number, answer: confirmed.json() };
}

describe('enrolling an authenticator app', () => {
  it('asks for the password, waits for the mailed link, then signs in with codes and recovery codes', async () => {
    const user = await createTestUser(api, 'sfenrol');
    const s = await signedIn(api, user);
    const wrong = await call(api, s, 'POST', '/rest/secure/second_factor/totp', { password: 'not-it', label: 'Phone' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().fieldErrors).toEqual({ password: [T.passwordWrong] });
    const empty = await call(api, s, 'POST', '/rest/secure/second_factor/totp', { password: user.password, label: '' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().fieldErrors).toHaveProperty('label');

    // A wrong code proves nothing.
    const begun = await call(api, s, 'POST', '/rest/secure/second_factor/totp', {
      password: user.password,
      label: 'Phone',
    });
    const badCode = await call(api, s, 'POST', `/rest/secure/second_factor/totp/${begun.json().factorId}/confirm`, {
      code: '000000',
    });
    expect(badCode.statusCode).toBe(422);
    expect(badCode.json().fieldErrors).toEqual({ code: [T.codeWrong] });

    const { secret, answer } = await addApp(api, s, user);
    expect(answer).toEqual({ state: 'AWAITING_EMAIL' });
    // Not yet a factor: the password alone still signs in, and the overview says it waits.
    expect(Object.keys((await signedIn(api, user)).body)).not.toContain('secondFactor');
    const waiting = (await call(api, s, 'GET', '/rest/secure/second_factor')).json();
    expect(waiting).toMatchObject({ factors: [{ label: 'Phone', state: 'AWAITING_EMAIL' }], recoveryCodesLeft: 0 });
    expect(JSON.stringify(waiting)).not.toContain(secret);

    const token = await mailedToken(user.email);
    // The link is the person's own: another signed-in person cannot use it.
    const other = await createTestUser(api, 'sfother');
    const foreign = await call(api, await signedIn(api, other), 'POST', '/rest/secure/second_factor/confirm_email', {
      token,
    });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().globalErrors).toEqual([T.linkInvalid]);

    const confirmed = await call(api, s, 'POST', '/rest/secure/second_factor/confirm_email', { token });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const { recoveryCodes } = confirmed.json();
    expect(recoveryCodes).toHaveLength(10);
    // Used once.
    expect((await call(api, s, 'POST', '/rest/secure/second_factor/confirm_email', { token })).statusCode).toBe(422);
    await waitForMail(user.email, T.mailSubjectAdded);

    const next = await signedIn(api, user);
    expect(next.body).toMatchObject({ secondFactor: { methods: ['TOTP', 'RECOVERY_CODE'] } });
    expect(
      (await call(api, next, 'POST', '/rest/secure/token/second_factor', { code: await nextStepCode(secret) }))
        .statusCode,
    ).toBe(200);
    const overview = (await call(api, next, 'GET', '/rest/secure/second_factor')).json();
    expect(overview).toMatchObject({ factors: [{ state: 'ACTIVE' }], recoveryCodesLeft: 10, required: false });

    const actions = (await audits(api, user.user.id)).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['SECOND_FACTOR_CONFIRMATION_SENT', 'SECOND_FACTOR_ADDED']));
    // Nothing a dump could replay: no secret or code in the audit rows.
    const rows = JSON.stringify(await audits(api, user.user.id), (_k, v: unknown) =>
      typeof v === 'bigint' ? String(v) : v,
    );
    expect(rows).not.toContain(secret);
    for (const code of recoveryCodes) expect(rows).not.toContain(code);
  });

  it('adds a further app at once, keeps the last one, and issues recovery codes again with the password', async () => {
    const user = await createTestUser(api, 'sfmore');
    const s = await signedIn(api, user);
    const first = await addApp(api, s, user, 'Phone');
    await call(api, s, 'POST', '/rest/secure/second_factor/confirm_email', { token: await mailedToken(user.email) });

    const second = await addApp(api, s, user, 'Tablet');
    expect(second.answer).toEqual({ state: 'ACTIVE' });
    // The last factor cannot go; with two, one can (the password again).
    const noPassword = await call(api, s, 'POST', `/rest/secure/second_factor/${first.factorId}/remove`, {
      password: 'wrong',
    });
    expect(noPassword.statusCode).toBe(422);
    expect(
      (await call(api, s, 'POST', `/rest/secure/second_factor/${first.factorId}/remove`, { password: user.password }))
        .statusCode,
    ).toBe(200);
    await waitForMail(user.email, T.mailSubjectRemoved);
    const last = await call(api, s, 'POST', `/rest/secure/second_factor/${second.factorId}/remove`, {
      password: user.password,
    });
    expect(last.statusCode).toBe(422);
    expect(last.json().globalErrors).toEqual([T.lastFactor]);
    // Someone else's factor is not found.
    const other = await signedIn(api, await createTestUser(api, 'sfnotmine'));
    const foreign = await call(api, other, 'POST', `/rest/secure/second_factor/${second.factorId}/remove`, {
      password: 'x',
    });
    expect([404, 422]).toContain(foreign.statusCode);

    const renewed = await call(api, s, 'POST', '/rest/secure/second_factor/recovery_codes', {
      password: user.password,
    });
    expect(renewed.statusCode).toBe(200);
    expect(renewed.json().recoveryCodes).toHaveLength(10);
    expect((await audits(api, user.user.id)).map((a) => a.action)).toEqual(
      expect.arrayContaining(['SECOND_FACTOR_REMOVED', 'RECOVERY_CODES_ISSUED']),
    );
  });
});

describe('a person who must use a second factor', () => {
  it('may only enrol until a factor signs them in, then signs in with it', async () => {
    const user = await createTestUser(obliging, 'sfmust', { roles: ['User Support Read-Only'] });
    const s = await signedIn(obliging, user);
    expect(s.body).toMatchObject({ secondFactorEnrolment: true });
    expect((await call(obliging, s, 'GET', '/rest/secure/user_profile')).statusCode).toBe(403);
    expect((await call(obliging, s, 'GET', '/rest/secure/user_management/user_requests/all')).statusCode).toBe(403);
    expect((await call(obliging, s, 'GET', '/rest/secure/user_capabilities/granted_permissions')).json()).toEqual([]);
    expect((await call(obliging, s, 'GET', '/rest/secure/second_factor')).json()).toMatchObject({ required: true });

    const { secret } = await addApp(obliging, s, user);
    expect((await call(obliging, s, 'GET', '/rest/secure/user_profile')).statusCode).toBe(403);
    const confirmed = await call(obliging, s, 'POST', '/rest/secure/second_factor/confirm_email', {
      token: await mailedToken(user.email),
    });
    expect(confirmed.statusCode).toBe(200);
    expect((await call(obliging, s, 'GET', '/rest/secure/user_profile')).statusCode).toBe(200);

    const next = await signedIn(obliging, user);
    expect(next.body).toMatchObject({ secondFactor: { methods: ['TOTP', 'RECOVERY_CODE'] } });
    expect(next.body).not.toHaveProperty('secondFactorEnrolment');
    await call(obliging, next, 'POST', '/rest/secure/token/second_factor', { code: await nextStepCode(secret) });
    expect((await call(obliging, next, 'GET', '/rest/secure/user_management/user_requests/all')).statusCode).toBe(200);
  });

  it('is not asked when the permission is not named', async () => {
    const user = await createTestUser(obliging, 'sfnotmust');
    expect((await signedIn(obliging, user)).body).not.toHaveProperty('secondFactorEnrolment');
  });
});

describe("staff and a person's second factors", () => {
  it('READ_USERS sees the kinds, an ADMIN resets them, and the next enrolment is a first one again', async () => {
    const person = await createTestUser(api, 'sfreset');
    const s = await signedIn(api, person);
    const { secret } = await addApp(api, s, person);
    await call(api, s, 'POST', '/rest/secure/second_factor/confirm_email', { token: await mailedToken(person.email) });

    const url = `/rest/secure/user_management/users/${person.user.id}/second_factor`;
    const reader = await signedIn(api, await createTestUser(api, 'sfreader', { roles: ['User Support Read-Only'] }));
    const seen = await call(api, reader, 'GET', url);
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toEqual({ kinds: ['TOTP'], awaitingEmail: false, recoveryCodesLeft: 10 });
    expect(seen.body).not.toContain(secret);
    // Denials: a network user sees nothing; READ_USERS resets nothing.
    expect((await call(api, await signedIn(api, await createTestUser(api, 'sfplain')), 'GET', url)).statusCode).toBe(
      403,
    );
    expect((await call(api, reader, 'POST', `${url}/reset`)).statusCode).toBe(403);

    const admin = await signedIn(api, await createTestUser(api, 'sfadmin', { roles: ['Administrator'] }));
    const reset = await call(api, admin, 'POST', `${url}/reset`);
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json()).toEqual({ removed: 1 });
    await waitForMail(person.email, T.mailSubjectReset);
    // The person's sessions ended; the password alone signs in again; the next enrolment waits for a link.
    expect((await call(api, s, 'GET', '/rest/secure/user_profile')).statusCode).toBe(401);
    const again = await signedIn(api, person);
    expect(again.body).not.toHaveProperty('secondFactor');
    expect((await addApp(api, again, person)).answer).toEqual({ state: 'AWAITING_EMAIL' });
    expect((await audits(api, person.user.id)).map((a) => a.action)).toContain('SECOND_FACTORS_RESET');
    expect(
      (await call(api, admin, 'POST', '/rest/secure/user_management/users/2147483000/second_factor/reset')).statusCode,
    ).toBe(404);
  });
});

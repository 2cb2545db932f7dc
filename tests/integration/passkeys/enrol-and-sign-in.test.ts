/**
 * Passkeys and security keys through the API's routes (docs/decisions.md "Passkeys"), on the real PostgreSQL,
 * slapd and SMTP catcher, answered by a software authenticator (tests/support/webauthn-authenticator.ts) so
 * the server's real WebAuthn verification runs:
 * - adding one asks for the password again; a person's first factor waits for the mailed link; a further one
 *   signs in at once; each is audited and mailed; removal asks for the password and keeps the last factor;
 * - the sign-in's second step takes a passkey's answer (listed first), recorded as RFC 8176 `hwk`;
 * - a passkey alone signs in (no username), `hwk` or `swk` (a synced passkey); the directory still decides:
 *   a locked entry, an inactive user, a password to change (the web is sent to the password form);
 * - a challenge issued by one API process is answered on another.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, PASSKEY_TEXTS, SECOND_FACTOR_TEXTS as T } from '@portal/contract';
import { lockAccount, setPasswordChangedTime } from '@portal/directory';
import { DAY_MS, createTestUser } from '../auth-helpers';
import { waitForMail } from '../fixtures';
import { type Session, type TestApi, caller, startApi } from '../harness';
import {
  audits,
  authenticator,
  call,
  enrolPasskey,
  mailedToken,
  passkeyEnv,
  passkeySignInCall,
  passwordSignIn,
  postCredential,
  registrationOptions,
  sessionOf,
  signInOptions,
  stepOptions,
} from './helpers';

let api: TestApi;
let second: TestApi;

beforeAll(async () => {
  [api, second] = await Promise.all([startApi(passkeyEnv()), startApi(passkeyEnv())]);
});
afterAll(async () => {
  await Promise.all([api?.close(), second?.close()]);
});

const sessionAmr = async (t: TestApi, userId: number) =>
  (await t.prisma.session.findMany({ where: { portalUserId: userId }, orderBy: { createdAt: 'desc' } }))[0]?.amr;

const profile = (t: TestApi, s: Session) => caller(t.app)(s, 'GET', '/rest/secure/user_profile');

describe('adding a passkey', () => {
  it('asks for the password, waits for the mailed link, then takes the second step first', async () => {
    const user = await createTestUser(api, 'pkenrol');
    const s = await passwordSignIn(api, user);
    const wrong = await call(api, s, 'POST', '/rest/secure/second_factor/webauthn/options', {
      password: 'not-it',
      label: 'Key',
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().fieldErrors).toEqual({ password: [T.passwordWrong] });
    const unnamed = await call(api, s, 'POST', '/rest/secure/second_factor/webauthn/options', {
      password: user.password,
      label: '',
    });
    expect(unnamed.statusCode).toBe(422);
    expect(unnamed.json().fieldErrors).toHaveProperty('label');

    const options = await registrationOptions(api, s, user);
    expect(options.rp.id).toBe('localhost');
    expect(options).toMatchObject({ authenticatorSelection: { userVerification: 'required' }, attestation: 'none' });
    const key = authenticator();
    const { json, credential } = key.register(options);
    const added = await postCredential(api, s, json);
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toEqual({ state: 'AWAITING_EMAIL' });
    // Not yet a factor: the password alone still signs in, and a passkey sign-in is refused.
    expect(Object.keys((await passwordSignIn(api, user)).body)).not.toContain('secondFactor');
    expect((await passkeySignInCall(api, key.assert(await signInOptions(api), {}, credential))).statusCode).toBe(401);

    const token = await mailedToken(user.email);
    const confirmed = await call(api, s, 'POST', '/rest/secure/second_factor/confirm_email', { token });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().recoveryCodes).toHaveLength(10);
    await waitForMail(user.email, T.mailSubjectAdded);

    const next = await passwordSignIn(api, user);
    expect(next.body).toMatchObject({ secondFactor: { methods: ['WEBAUTHN', 'RECOVERY_CODE'] } });
    expect((await profile(api, next)).statusCode).toBe(403);
    const stepOpts = await stepOptions(api, next);
    expect(stepOpts.allowCredentials.map((c) => c.id)).toEqual([credential.id]);
    const step = await call(api, next, 'POST', '/rest/secure/token/second_factor', {
      assertion: key.assert(stepOpts),
    });
    expect(step.statusCode, step.body).toBe(200);
    expect((await profile(api, next)).statusCode).toBe(200);
    expect(await sessionAmr(api, user.user.id)).toEqual(['pwd', 'hwk']);

    const overview = (await call(api, next, 'GET', '/rest/secure/second_factor')).json();
    expect(overview.factors).toEqual([
      expect.objectContaining({ kind: 'WEBAUTHN', label: 'Blue key', state: 'ACTIVE', lastUsedAt: expect.any(String) }),
    ]);
    const actions = (await audits(api, user.user.id)).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['SECOND_FACTOR_CONFIRMATION_SENT', 'SECOND_FACTOR_ADDED']));
    const stored = await api.prisma.webAuthnCredential.findUniqueOrThrow({ where: { credentialId: credential.id } });
    // Two assertions signed: the refused sign-in's and the step's.
    expect(stored).toMatchObject({ counter: 2n, transports: ['usb'], backupEligible: false, backedUp: false });
    expect(stored.aaguid).toBe('00000000-0000-0000-0000-000000000000');
  });

  it('adds a further passkey at once, removes one with the password and keeps the last', async () => {
    const user = await createTestUser(api, 'pkmore');
    const key = authenticator();
    const { session } = await enrolPasskey(api, user, key);
    const options = await registrationOptions(api, session, user, 'Laptop');
    // The person's own credential is excluded, so the browser does not register the same one again.
    expect((options.excludeCredentials as Array<{ id: string }>).map((c) => c.id)).toEqual([key.credentials[0]!.id]);
    const further = await postCredential(api, session, key.register(options).json);
    expect(further.statusCode, further.body).toBe(200);
    expect(further.json()).toEqual({ state: 'ACTIVE' });

    const factors = (await call(api, session, 'GET', '/rest/secure/second_factor')).json().factors as Array<{
      id: number;
    }>;
    expect(factors).toHaveLength(2);
    const removeUrl = (id: number) => `/rest/secure/second_factor/${id}/remove`;
    const wrong = await call(api, session, 'POST', removeUrl(factors[0]!.id), { password: 'not-it' });
    expect(wrong.statusCode).toBe(422);
    expect((await call(api, session, 'POST', removeUrl(factors[0]!.id), { password: user.password })).statusCode).toBe(
      200,
    );
    await waitForMail(user.email, T.mailSubjectRemoved);
    expect(await api.prisma.webAuthnCredential.count({ where: { credentialId: key.credentials[0]!.id } })).toBe(0);
    const last = await call(api, session, 'POST', removeUrl(factors[1]!.id), { password: user.password });
    expect(last.statusCode).toBe(422);
    expect(last.json().globalErrors).toEqual([T.lastFactor]);
    expect((await audits(api, user.user.id)).map((a) => a.action)).toContain('SECOND_FACTOR_REMOVED');
  });
});

describe('a passkey as the whole sign-in', () => {
  it('signs in with no username: hwk for a security key, swk for a synced passkey', async () => {
    for (const [synced, amr] of [
      [false, 'hwk'],
      [true, 'swk'],
    ] as const) {
      const user = await createTestUser(api, synced ? 'pksync' : 'pkalone');
      const key = authenticator(synced);
      await enrolPasskey(api, user, key);
      const options = await signInOptions(api);
      expect(options.allowCredentials ?? []).toEqual([]);
      const res = await passkeySignInCall(api, key.assert(options));
      expect(res.statusCode, res.body).toBe(200);
      expect(Object.keys(res.json()).sort()).toEqual(['passwordExpiresSoon', 'tokenTimeoutInSeconds', 'xsrfToken']);
      const s = sessionOf(res);
      expect((await profile(api, s)).statusCode).toBe(200);
      expect(await sessionAmr(api, user.user.id)).toEqual([amr]);
    }
  });

  it('answers a challenge issued by another API process, once', async () => {
    const user = await createTestUser(api, 'pkproc');
    const key = authenticator();
    await enrolPasskey(api, user, key);
    const assertion = key.assert(await signInOptions(api));
    const res = await passkeySignInCall(second, assertion);
    expect(res.statusCode, res.body).toBe(200);
    expect((await profile(second, sessionOf(res))).statusCode).toBe(200);
    // Used: the same answer is refused on either process.
    for (const t of [api, second]) {
      const replayed = await passkeySignInCall(t, assertion);
      expect(replayed.statusCode).toBe(401);
      expect(replayed.json()).toMatchObject({ credentialsInvalid: true, message: MESSAGES.signIn.credentialsInvalid });
    }

    // The second step too: options from one process, the answer on the other.
    const s = await passwordSignIn(api, user);
    const step = await call(second, s, 'POST', '/rest/secure/token/second_factor', {
      assertion: key.assert(await stepOptions(api, s)),
    });
    expect(step.statusCode, step.body).toBe(200);
  });

  it("still reads the directory's account state", async () => {
    const locked = await createTestUser(api, 'pklock');
    const lockedKey = authenticator();
    await enrolPasskey(api, locked, lockedKey);
    await lockAccount(api.directory, locked.username);
    const lockedRes = await passkeySignInCall(api, lockedKey.assert(await signInOptions(api)));
    expect(lockedRes.statusCode).toBe(401);
    expect(lockedRes.json()).toEqual({ accountLocked: true, message: MESSAGES.signIn.accountLocked });

    const disabled = await createTestUser(api, 'pkoff');
    const disabledKey = authenticator();
    await enrolPasskey(api, disabled, disabledKey);
    await api.prisma.portalUser.update({ where: { id: disabled.user.id }, data: { inactive: true } });
    const disabledRes = await passkeySignInCall(api, disabledKey.assert(await signInOptions(api)));
    expect(disabledRes.statusCode).toBe(401);
    expect(disabledRes.json()).toEqual({ accountDisabled: true, message: MESSAGES.signIn.accountDisabled });

    const expired = await createTestUser(api, 'pkexp');
    const expiredKey = authenticator();
    await enrolPasskey(api, expired, expiredKey);
    await setPasswordChangedTime(api.directory, expired.username, new Date(Date.now() - 95 * DAY_MS));
    const expiredRes = await passkeySignInCall(api, expiredKey.assert(await signInOptions(api)));
    expect(expiredRes.statusCode).toBe(401);
    expect(expiredRes.json()).toEqual({
      passwordExpired: true,
      usePasswordForm: true,
      message: PASSKEY_TEXTS.usePasswordForm,
    });
    expect(expiredRes.cookies.find((c) => c.name === 'pg_session')).toBeUndefined();

    // Inside the expiry-warning window: signed in, warned as the password form warns (000 §4).
    const warned = await createTestUser(api, 'pkwarn');
    const warnedKey = authenticator();
    await enrolPasskey(api, warned, warnedKey);
    await setPasswordChangedTime(api.directory, warned.username, new Date(Date.now() - 80 * DAY_MS));
    const warnedRes = await passkeySignInCall(api, warnedKey.assert(await signInOptions(api)));
    expect(warnedRes.statusCode, warnedRes.body).toBe(200);
    expect(warnedRes.json()).toMatchObject({ passwordExpiresSoon: true, expiryState: 'WarnUserToChangePassword' });
    expect(warnedRes.cookies.find((c) => c.name === 'pg_session')).toBeDefined();
  });
});

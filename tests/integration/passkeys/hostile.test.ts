/**
 * Passkey answers a hostile client bends (docs/decisions.md "Passkeys"), through the real routes and the
 * server's real WebAuthn verification: each is refused with a 4xx (never a 5xx) and stores nothing. A new
 * credential: another origin or rp id, garbage attestation object or client data, no user verification, the
 * wrong ceremony, a challenge used, expired or of another session, an authenticator already registered (by
 * anyone). An assertion: the same, a bad signature, and a signed counter that goes backwards (refused and
 * audited as a possibly cloned key; an unsigned one is not audited). And the denials: no session (401),
 * another person's credential or factor, a session limited to the second step.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSKEY_TEXTS } from '@portal/contract';
import { createTestUser, type TestUser, uniqueClientAddress } from '../auth-helpers';
import { type Session, type TestApi, startApi } from '../harness';
import type { Bend, RegistrationJSON } from '../../support/webauthn-authenticator';
import {
  audits,
  authenticator,
  call,
  enrolPasskey,
  passkeyEnv,
  passkeySignInCall,
  passwordSignIn,
  postCredential,
  registrationOptions,
  signInOptions,
  stepOptions,
} from './helpers';

let api: TestApi;

beforeAll(async () => {
  api = await startApi(passkeyEnv());
});
afterAll(async () => {
  await api?.close();
});

const stored = (t: TestApi, userId: number) =>
  t.prisma.secondFactor.count({ where: { portalUserId: userId, kind: 'WEBAUTHN' } });

const garbage = Buffer.from('not cbor, not json at all').toString('base64url');

describe('a new credential', () => {
  let user: TestUser;
  let s: Session;
  beforeAll(async () => {
    user = await createTestUser(api, 'pkbad');
    s = await passwordSignIn(api, user);
  });

  /** Posts a registration of fresh options, bent by `bend` and then by `edit`. */
  async function attempt(bend: Bend, edit: (json: RegistrationJSON) => object = (j) => j) {
    const options = await registrationOptions(api, s, user);
    return postCredential(api, s, edit(authenticator().register(options, bend).json));
  }

  it.each<[string, Bend, ((j: RegistrationJSON) => object)?]>([
    ['another origin', { origin: 'https://portal.evil.test' }],
    ['another rp id', { rpId: 'evil.test' }],
    ['no user verification', { uv: false }],
    ['the sign-in ceremony', { type: 'webauthn.get' }],
    ['a challenge never issued', { challenge: Buffer.alloc(32, 7).toString('base64url') }],
    ['a garbage attestation object', {}, (j) => ({ ...j, response: { ...j.response, attestationObject: garbage } })],
    ['garbage client data', {}, (j) => ({ ...j, response: { ...j.response, clientDataJSON: garbage } })],
    ['an id that is not the credential', {}, (j) => ({ ...j, id: 'AAAA', rawId: 'AAAA' })],
  ])('refuses %s with 422 and stores nothing', async (_name, bend, edit) => {
    const res = await attempt(bend, edit);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().globalErrors).toEqual([PASSKEY_TEXTS.refused]);
    expect(await stored(api, user.user.id)).toBe(0);
  });

  it('answers 422 with fieldErrors to a malformed body, never a 5xx', async () => {
    const options = await registrationOptions(api, s, user);
    const good = authenticator().register(options).json;
    for (const body of [
      {},
      { credential: {} },
      { credential: { ...good, type: 'password' } },
      { credential: { ...good, response: { ...good.response, clientDataJSON: 'not base64url!' } } },
      { credential: { ...good, response: { ...good.response, attestationObject: 'A'.repeat(40_000) } } },
      { credential: good, extra: 1 },
      { credential: 'x' },
    ]) {
      const res = await call(api, s, 'POST', '/rest/secure/second_factor/webauthn', body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 200)).toBe(422);
      expect(res.json()).toHaveProperty('fieldErrors');
      expect(res.body).not.toMatch(/at .*\.(ts|js):\d+/);
    }
    expect(await stored(api, user.user.id)).toBe(0);
  });

  it('uses a challenge once, refuses an expired one and one of another session', async () => {
    const other = await createTestUser(api, 'pkused');
    const session = await passwordSignIn(api, other);
    const json = authenticator().register(await registrationOptions(api, session, other)).json;
    expect((await postCredential(api, session, json)).statusCode).toBe(200);
    const replayed = await postCredential(api, session, json);
    expect(replayed.statusCode).toBe(422);

    const late = authenticator().register(await registrationOptions(api, s, user)).json;
    await api.prisma.webAuthnChallenge.updateMany({
      where: { portalUserId: user.user.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await postCredential(api, s, late)).statusCode).toBe(422);

    // Options of one session of the person, answered in another of theirs: refused.
    const elsewhere = await passwordSignIn(api, user);
    const foreign = authenticator().register(await registrationOptions(api, s, user)).json;
    expect((await postCredential(api, elsewhere, foreign)).statusCode).toBe(422);
    expect(await stored(api, user.user.id)).toBe(0);
  });

  it('refuses an authenticator registered already, also by someone else', async () => {
    const owner = await createTestUser(api, 'pkowner');
    const key = authenticator();
    const { credential } = await enrolPasskey(api, owner, key);
    const again = key.register(await registrationOptions(api, s, user), { reuse: credential }).json;
    const res = await postCredential(api, s, again);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().globalErrors).toEqual([PASSKEY_TEXTS.taken]);
    expect(await stored(api, user.user.id)).toBe(0);
  });
});

describe('an assertion', () => {
  it('is refused when bent, and a passkey sign-in says only credentialsInvalid', async () => {
    const user = await createTestUser(api, 'pkassert');
    const key = authenticator();
    await enrolPasskey(api, user, key);
    const bends: Array<[Bend, ((a: ReturnType<typeof key.assert>) => object)?]> = [
      [{ origin: 'https://portal.evil.test' }],
      [{ rpId: 'evil.test' }],
      [{ uv: false }],
      [{ type: 'webauthn.create' }],
      [{}, (a) => ({ ...a, response: { ...a.response, signature: Buffer.alloc(70, 1).toString('base64url') } })],
      [{}, (a) => ({ ...a, response: { ...a.response, authenticatorData: garbage } })],
      [{}, (a) => ({ ...a, response: { ...a.response, clientDataJSON: garbage } })],
    ];
    for (const [bend, edit = (a: object) => a] of bends) {
      const res = await passkeySignInCall(api, edit(key.assert(await signInOptions(api), bend)));
      expect(res.statusCode, JSON.stringify(bend)).toBe(401);
      expect(res.json()).toMatchObject({ credentialsInvalid: true });
    }
    const lateOptions = await signInOptions(api);
    const expired = key.assert(lateOptions);
    await api.prisma.webAuthnChallenge.updateMany({
      where: { id: crypto.createHash('sha256').update(lateOptions.challenge).digest('hex') },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await passkeySignInCall(api, expired)).statusCode).toBe(401);
    for (const body of [{}, { assertion: {} }, { assertion: { id: 'x' } }, { assertion: expired, more: 1 }]) {
      const res = await api.app.inject({ method: 'POST', url: '/rest/token/webauthn', payload: body });
      expect(res.statusCode, JSON.stringify(body).slice(0, 120)).toBe(422);
    }
    // The garbage signature counted nothing as a cloned key: only signed counters are compared.
    expect((await audits(api, user.user.id)).map((a) => a.action)).not.toContain('WEBAUTHN_COUNTER_REGRESSED');
  });

  it('refuses a signed counter that goes backwards and audits a possibly cloned key', async () => {
    const user = await createTestUser(api, 'pkclone');
    const key = authenticator();
    const { credential } = await enrolPasskey(api, user, key);
    expect((await passkeySignInCall(api, key.assert(await signInOptions(api), { counter: 5 }))).statusCode).toBe(200);
    // Unsigned (a bad signature): refused, and no cloned key claimed on an attacker's word.
    const unsigned = key.assert(await signInOptions(api), { counter: 2 });
    unsigned.response.signature = Buffer.alloc(70, 1).toString('base64url');
    expect((await passkeySignInCall(api, unsigned)).statusCode).toBe(401);
    expect((await audits(api, user.user.id)).map((a) => a.action)).not.toContain('WEBAUTHN_COUNTER_REGRESSED');
    for (const counter of [3, 5]) {
      const res = await passkeySignInCall(api, key.assert(await signInOptions(api), { counter }));
      expect(res.statusCode).toBe(401);
    }
    const row = await api.prisma.webAuthnCredential.findUniqueOrThrow({ where: { credentialId: credential.id } });
    expect(row.counter).toBe(5n);
    const cloned = (await audits(api, user.user.id)).filter((a) => a.action === 'WEBAUTHN_COUNTER_REGRESSED');
    expect(cloned.map((a) => a.after)).toEqual([
      expect.objectContaining({ storedCounter: '5', reportedCounter: 3 }),
      expect.objectContaining({ storedCounter: '5', reportedCounter: 5 }),
    ]);
    expect((await passkeySignInCall(api, key.assert(await signInOptions(api), { counter: 6 }))).statusCode).toBe(200);
  });

  it("counts a refused second step as a wrong code, and takes no one else's credential", async () => {
    const user = await createTestUser(api, 'pkstep');
    const stranger = await createTestUser(api, 'pkstranger');
    const key = authenticator();
    await enrolPasskey(api, user, key);
    const strangerKey = authenticator();
    await enrolPasskey(api, stranger, strangerKey);
    const s = await passwordSignIn(api, user);
    const theirs = strangerKey.assert(await stepOptions(api, s), {}, strangerKey.credentials[0]);
    const refused = await call(api, s, 'POST', '/rest/secure/token/second_factor', { assertion: theirs });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ credentialsInvalid: true, attemptsLeftUntilLocked: expect.any(Number) });
    expect(await api.prisma.secondFactorFailure.findUnique({ where: { portalUserId: user.user.id } })).toMatchObject({
      failures: 1,
    });
    // The step's challenge is the session's: a passkey sign-in cannot use it, nor the step a sign-in's.
    const stepChallenge = key.assert(await stepOptions(api, s));
    expect((await passkeySignInCall(api, stepChallenge)).statusCode).toBe(401);
    const signInChallenge = key.assert(await signInOptions(api));
    expect(
      (await call(api, s, 'POST', '/rest/secure/token/second_factor', { assertion: signInChallenge })).statusCode,
    ).toBe(401);
    const ok = await call(api, s, 'POST', '/rest/secure/token/second_factor', {
      assertion: key.assert(await stepOptions(api, s)),
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

describe('rate limits', () => {
  it('limits both calls of a passkey sign-in per client address, as the password sign-in', async () => {
    const limited = await startApi(passkeyEnv({ RATE_LIMIT_SIGN_IN_MAX: '2' }));
    try {
      // The limits count in PostgreSQL for every API of the run: an address no other test counts from.
      const remoteAddress = uniqueClientAddress();
      const send = (url: string, payload?: object) =>
        limited.app.inject({ method: 'POST', url, remoteAddress, ...(payload ? { payload } : {}) });
      const options = [];
      for (let i = 0; i < 3; i++) options.push((await send('/rest/token/webauthn/options')).statusCode);
      expect(options).toEqual([200, 200, 429]);
      const bogus = { assertion: { ...authenticator().register({ challenge: 'AAAA' }).json, response: {} } };
      const verify = [];
      for (let i = 0; i < 3; i++) verify.push((await send('/rest/token/webauthn', bogus)).statusCode);
      // Malformed answers count too.
      expect(verify).toEqual([422, 422, 429]);
      expect((await send('/rest/token/webauthn/options')).json()).toHaveProperty('message');
    } finally {
      await limited.close();
    }
  });
});

describe('denials', () => {
  it('answers 401 without a session, 403 and 404 for what is not the caller’s', async () => {
    for (const url of [
      '/rest/secure/second_factor/webauthn/options',
      '/rest/secure/second_factor/webauthn',
      '/rest/secure/token/second_factor/webauthn/options',
    ]) {
      expect((await call(api, null, 'POST', url, {})).statusCode, url).toBe(401);
    }
    const owner = await createTestUser(api, 'pkmine');
    await enrolPasskey(api, owner, authenticator());
    const factor = await api.prisma.secondFactor.findFirstOrThrow({ where: { portalUserId: owner.user.id } });
    const other = await createTestUser(api, 'pknotmine');
    const s = await passwordSignIn(api, other);
    // No passkey of their own: no second-step options.
    expect((await call(api, s, 'POST', '/rest/secure/token/second_factor/webauthn/options')).statusCode).toBe(403);
    const removal = await call(api, s, 'POST', `/rest/secure/second_factor/${factor.id}/remove`, {
      password: other.password,
    });
    expect(removal.statusCode).toBe(404);
    expect(await api.prisma.secondFactor.count({ where: { id: factor.id } })).toBe(1);
    // A session still waiting for its second step cannot add a passkey.
    const pending = await passwordSignIn(api, owner);
    const adding = await call(api, pending, 'POST', '/rest/secure/second_factor/webauthn/options', {
      password: owner.password,
      label: 'Key',
    });
    expect(adding.statusCode).toBe(403);
  });
});

/**
 * The second step and enrolment while slapd is stopped or frozen (a fault proxy in front of it, the API's LDAP
 * deadline shortened): the person is told to try again (503 with a message, within the deadline), never a 500
 * or a call that hangs; nothing is enrolled; healed, the same person goes on.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, SECOND_FACTOR_TEXTS as T } from '@portal/contract';
import { totpCode } from '../../../api/src/auth/totp';
import { FAULTS, type FaultProxy, faultName, proxyFor } from '../../support/fault-proxy';
import { createTestUser } from '../auth-helpers';
import { stackEnv } from '../fixtures';
import { type Session, type TestApi, caller, signInCall, startApi } from '../harness';
import { enrolConfirmed } from '../../support/totp-codes';

const KEY = crypto.randomBytes(32).toString('base64url');
/** Longer than a healthy call on a busy machine, short enough for the test. */
const LDAP_TIMEOUT_MS = 2_000;
let api: TestApi;
let proxy: FaultProxy;

beforeAll(async () => {
  const proxied = await proxyFor(stackEnv().LDAP_URL!);
  proxy = proxied.proxy;
  api = await startApi({ SECOND_FACTOR_KEY: KEY, LDAP_URL: proxied.url, LDAP_TIMEOUT_MS: String(LDAP_TIMEOUT_MS) });
});
afterAll(async () => {
  proxy?.heal();
  await api?.close();
  await proxy?.close();
});

async function signedIn(user: {
  username: string;
  password: string;
}): Promise<Session & { body: Record<string, unknown> }> {
  const res = await signInCall(api.app, user.username, user.password);
  expect(res.statusCode, res.body).toBe(200);
  const cookie = res.cookies.find((c) => c.name === 'pg_session')!;
  return { cookie: `pg_session=${cookie.value}`, xsrf: res.json().xsrfToken, body: res.json() };
}

/** Runs `call` with slapd `fault`; @returns its answer and how long it took (ms). */
async function whileDirectoryFails<T>(fault: (typeof FAULTS)[number], call: () => Promise<T>) {
  proxy.fail(fault);
  const started = Date.now();
  try {
    return { answer: await call(), ms: Date.now() - started };
  } finally {
    proxy.heal();
  }
}

describe.each(FAULTS)('slapd %s', (fault) => {
  it(`answers an enrolment 503 while slapd is ${faultName(fault)}, enrols nothing, and goes on once healed`, async () => {
    const user = await createTestUser(api, 'sfldap');
    const s = await signedIn(user);
    const begin = () =>
      caller(api.app)(s, 'POST', '/rest/secure/second_factor/totp', { password: user.password, label: 'Phone' });
    const { answer, ms } = await whileDirectoryFails(fault, begin);
    expect(answer.statusCode, answer.body).toBe(503);
    expect(answer.json()).toEqual({ message: T.directoryUnavailable });
    expect(ms).toBeLessThan(LDAP_TIMEOUT_MS * 4);
    expect(await api.prisma.secondFactor.count({ where: { portalUserId: user.user.id } })).toBe(0);
    expect((await begin()).statusCode).toBe(200);
  });

  it(`answers a wrong second-step code 503 while slapd is ${faultName(fault)}; healed, a right code signs in`, async () => {
    const user = await createTestUser(api, 'sfldapstep');
    // Confirmed with no code used: the sign-in takes the current one (support/totp-codes.ts).
    const enrolment = await enrolConfirmed(api.prisma, KEY, user.user, 'Phone');
    const s = await signedIn(user);
    expect(s.body).toHaveProperty('secondFactor');
    const { answer, ms } = await whileDirectoryFails(fault, () =>
      caller(api.app)(s, 'POST', '/rest/secure/token/second_factor', { code: '000000' }),
    );
    expect(answer.statusCode, answer.body).toBe(503);
    expect(answer.json()).toMatchObject({ unspecifiedFailure: true, message: MESSAGES.signIn.unspecifiedFailure });
    expect(ms).toBeLessThan(LDAP_TIMEOUT_MS * 4);
    const taken = await caller(api.app)(s, 'POST', '/rest/secure/token/second_factor', {
      code: await totpCode(enrolment.secret),
    });
    expect(taken.statusCode, taken.body).toBe(200);
  });
});

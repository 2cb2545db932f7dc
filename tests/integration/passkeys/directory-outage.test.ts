/**
 * A passkey sign-in while slapd is stopped or frozen (a fault proxy in front of it, the API's LDAP deadline
 * shortened): the directory's account state cannot be read, so the person is told to try again (503 with
 * 000 §8's text, within the deadline), never signed in without it, never a 500 or a call that hangs; healed,
 * a new answer signs in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/contract';
import { FAULTS, type FaultProxy, faultName, proxyFor } from '../../support/fault-proxy';
import { createTestUser } from '../auth-helpers';
import { stackEnv } from '../fixtures';
import { type TestApi, startApi } from '../harness';
import { authenticator, enrolPasskey, passkeyEnv, passkeySignInCall, signInOptions } from './helpers';

/** Longer than a healthy call on a busy machine, short enough for the test. */
const LDAP_TIMEOUT_MS = 2_000;
let api: TestApi;
let proxy: FaultProxy;

beforeAll(async () => {
  const proxied = await proxyFor(stackEnv().LDAP_URL!);
  proxy = proxied.proxy;
  api = await startApi(passkeyEnv({ LDAP_URL: proxied.url, LDAP_TIMEOUT_MS: String(LDAP_TIMEOUT_MS) }));
});
afterAll(async () => {
  proxy?.heal();
  await api?.close();
  await proxy?.close();
});

describe.each(FAULTS)('slapd %s', (fault) => {
  it(`answers a passkey sign-in 503 while slapd is ${faultName(fault)}, opens no session, and goes on once healed`, async () => {
    const user = await createTestUser(api, 'pkldap');
    const key = authenticator();
    await enrolPasskey(api, user, key);
    const assertion = key.assert(await signInOptions(api));
    proxy.fail(fault);
    const started = Date.now();
    let answer;
    try {
      answer = await passkeySignInCall(api, assertion);
    } finally {
      proxy.heal();
    }
    expect(answer.statusCode, answer.body).toBe(503);
    expect(answer.json()).toEqual({ unspecifiedFailure: true, message: MESSAGES.signIn.unspecifiedFailure });
    expect(Date.now() - started).toBeLessThan(LDAP_TIMEOUT_MS * 4);
    expect(await api.prisma.session.count({ where: { portalUserId: user.user.id, amr: { has: 'hwk' } } })).toBe(0);
    const healed = await passkeySignInCall(api, key.assert(await signInOptions(api)));
    expect(healed.statusCode, healed.body).toBe(200);
  });
});

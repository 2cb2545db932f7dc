/**
 * A first factor's confirmation link while the SMTP server is stopped or frozen (a fault proxy in front of the
 * catcher, the API's SMTP deadline shortened): the person is told the mail could not be sent (503, within the
 * deadline, never a call that hangs), the enrolment is dropped so nothing waits for a link that never left,
 * and once the server is back the same person enrols with a link.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECOND_FACTOR_TEXTS as T } from '@portal/contract';
import { currentCode } from '../../support/totp-codes';
import { FAULTS, type FaultProxy, faultName, proxyFor } from '../../support/fault-proxy';
import { createTestUser } from '../auth-helpers';
import { stackEnv, waitForMail } from '../fixtures';
import { type TestApi, caller, signInCall, startApi } from '../harness';

const KEY = crypto.randomBytes(32).toString('base64url');
const SMTP_TIMEOUT_MS = 2_000;
let api: TestApi;
let proxy: FaultProxy;

beforeAll(async () => {
  const proxied = await proxyFor(stackEnv().SMTP_URL!);
  proxy = proxied.proxy;
  api = await startApi({ SECOND_FACTOR_KEY: KEY, SMTP_URL: proxied.url, SMTP_TIMEOUT_MS: String(SMTP_TIMEOUT_MS) });
});
afterAll(async () => {
  proxy?.heal();
  await api?.close();
  await proxy?.close();
});

describe.each(FAULTS)('the SMTP server %s', (fault) => {
  it(`answers 503 and drops the enrolment while it is ${faultName(fault)}; healed, the link is mailed`, async () => {
    const user = await createTestUser(api, 'sfsmtp');
    const res = await signInCall(api.app, user.username, user.password);
    const s = {
      cookie: `pg_session=${res.cookies.find((c) => c.name === 'pg_session')!.value}`,
      xsrf: res.json().xsrfToken,
      body: res.json(),
    };
    const call = caller(api.app);
    const prove = async () => {
      const begun = await call(s, 'POST', '/rest/secure/second_factor/totp', {
        password: user.password,
        label: 'Phone',
      });
      expect(begun.statusCode, begun.body).toBe(200);
      const { factorId, secret } = begun.json();
      return call(s, 'POST', `/rest/secure/second_factor/totp/${factorId}/confirm`, {
        code: await currentCode(secret),
      });
    };

    proxy.fail(fault);
    const started = Date.now();
    let refused;
    try {
      refused = await prove();
    } finally {
      proxy.heal();
    }
    expect(Date.now() - started).toBeLessThan(SMTP_TIMEOUT_MS * 5);
    expect(refused.statusCode, refused.body).toBe(503);
    expect(refused.json()).toEqual({ message: T.mailUnavailable });
    expect(await api.prisma.secondFactor.count({ where: { portalUserId: user.user.id } })).toBe(0);

    const again = await prove();
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual({ state: 'AWAITING_EMAIL' });
    await waitForMail(user.email, T.mailSubjectConfirm);
  });
});

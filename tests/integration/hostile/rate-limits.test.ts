/**
 * The sign-in and forgot-password rate limits against forged X-Forwarded-For (issue 13): with no trusted
 * proxy (the default) a made-up forwarded address gets no fresh budget; a trusted hop's forwarded address is
 * the client's (one budget per real client); a hop that is not trusted is counted as itself, whatever it
 * forwards; with a hop count, only the address the trusted hop appended counts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '@portal/contract';
import { buildTestApp, createTestUser, type TestApp, uniqueClientAddress } from '../auth-helpers';

const open: TestApp[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((a) => a.close()));
});

async function app(env: Record<string, string>): Promise<TestApp> {
  const t = await buildTestApp({ RATE_LIMIT_SIGN_IN_MAX: '2', RATE_LIMIT_FORGOT_PASSWORD_MAX: '2', ...env });
  open.push(t);
  return t;
}

/** A failed sign-in (always the same unknown name) from `remoteAddress`, forwarding `xff` when given. */
const signInFrom = (t: TestApp, remoteAddress: string, xff?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/rest/token/create',
    remoteAddress,
    headers: xff ? { 'x-forwarded-for': xff } : {},
    payload: { username: 'rate-limit-probe', password: 'Wrong-Password-1!' },
  });

const forgotFrom = (t: TestApp, remoteAddress: string, xff?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/rest/public/forgot_password',
    remoteAddress,
    headers: xff ? { 'x-forwarded-for': xff } : {},
    payload: { emailAddress: 'nobody@example.org' },
  });

/** Statuses of sign-ins from one connection address, each forwarding a different made-up client. */
async function statuses(send: (xff: string) => Promise<{ statusCode: number }>, n: number) {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await send(`203.0.113.${i + 1}`)).statusCode);
  return out;
}

describe('rate limits and forwarded addresses', () => {
  it('trusts no forwarded address by default: a forged one gets no fresh budget', async () => {
    const t = await app({});
    // The limits count in PostgreSQL for every API of the run: addresses no other test counts from.
    const [client, other] = [uniqueClientAddress(), uniqueClientAddress()];
    expect(await statuses((xff) => signInFrom(t, client, xff), 4)).toEqual([401, 401, 429, 429]);
    expect(await statuses((xff) => forgotFrom(t, client, xff), 4)).toEqual([200, 200, 429, 429]);
    const limited = await signInFrom(t, client);
    expect(limited.json()).toEqual({ message: AUTH_MESSAGES.tooManyRequests });
    // Another connection address is another client.
    expect((await signInFrom(t, other)).statusCode).toBe(401);
  });

  it('counts per forwarded client behind a trusted hop, and per hop for one that is not trusted', async () => {
    const t = await app({ TRUST_PROXY: '10.0.0.1' });
    // Through the trusted proxy: each real client has its own budget, and one client is limited.
    expect(await statuses((xff) => signInFrom(t, '10.0.0.1', xff), 3)).toEqual([401, 401, 401]);
    expect((await signInFrom(t, '10.0.0.1', '203.0.113.9')).statusCode).toBe(401);
    expect((await signInFrom(t, '10.0.0.1', '203.0.113.9')).statusCode).toBe(401);
    expect((await signInFrom(t, '10.0.0.1', '203.0.113.9')).statusCode).toBe(429);
    // From a hop that is not trusted, forwarded addresses are ignored.
    expect(await statuses((xff) => signInFrom(t, '10.0.0.2', xff), 3)).toEqual([401, 401, 429]);
    expect(await statuses((xff) => forgotFrom(t, '10.0.0.2', xff), 3)).toEqual([200, 200, 429]);
  });

  it('with a hop count, takes the address the trusted hop appended, not what the client wrote before it', async () => {
    const t = await app({ TRUST_PROXY: '1' });
    // The client forges a new first entry each time; the proxy appends the real address 198.51.100.7.
    const forged = await statuses((xff) => signInFrom(t, '172.18.0.5', `${xff}, 198.51.100.7`), 3);
    expect(forged).toEqual([401, 401, 429]);
    // Two real clients behind the same proxy have their own budgets.
    expect((await signInFrom(t, '172.18.0.5', '198.51.100.8')).statusCode).toBe(401);
  });

  it('marks the session cookie Secure for a forwarded https only from a trusted hop', async () => {
    const t = await app({ TRUST_PROXY: '10.0.0.1', RATE_LIMIT_SIGN_IN_MAX: '100' });
    const u = await createTestUser(t, 'tls');
    const from = (remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: '/rest/token/create',
        remoteAddress,
        headers: { 'x-forwarded-proto': 'https' },
        payload: { username: u.username, password: u.password },
      });
    expect((await from('10.0.0.1')).cookies.find((c) => c.name === 'pg_session')?.secure).toBe(true);
    expect((await from('10.0.0.2')).cookies.find((c) => c.name === 'pg_session')?.secure).toBeFalsy();
  });
});

/**
 * The session on the server (000 §4 Session timeout, §7 token/refresh, token/invalidate): a short
 * tokenTimeoutInSeconds enforced and slid by refresh, the cookie's attributes (Secure behind TLS), the XSRF
 * header, helmet's security headers and the rate limits on sign-in and forgot-password (429 with a message).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '@portal/contract';
import {
  buildTestApp,
  call,
  createTestUser,
  signIn,
  signInCall,
  type TestApp,
  type TestUser,
  uniqueClientAddress,
} from './auth-helpers';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let t: TestApp;
let u: TestUser;

beforeAll(async () => {
  t = await buildTestApp();
  u = await createTestUser(t, 'sess');
});

afterAll(async () => {
  await t?.close();
});

describe('session timeout (000 §4, §9)', () => {
  it('expires an idle session after tokenTimeoutInSeconds, and every refresh extends it', async () => {
    const short = await buildTestApp({ SESSION_TIMEOUT_SECONDS: '2' });
    try {
      const s = await signIn(short.app, u.username, u.password);
      expect(s.body.tokenTimeoutInSeconds).toBe(2);
      for (let i = 0; i < 3; i++) {
        await sleep(1200);
        const refreshed = await call(short.app, s, 'GET', '/rest/secure/token/refresh');
        expect(refreshed.statusCode).toBe(200);
        expect(refreshed.json()).toEqual({ tokenTimeoutInSeconds: 2 });
      }
      await sleep(2300);
      const late = await call(short.app, s, 'GET', '/rest/secure/token/refresh');
      expect(late.statusCode).toBe(401);
      expect(late.json()).toEqual({ message: 'Please sign in' });
    } finally {
      await short.close();
    }
  });

  it('ends the session on invalidate and refuses it afterwards', async () => {
    const s = await signIn(t.app, u.username, u.password);
    const out = await call(t.app, s, 'POST', '/rest/secure/token/invalidate', {});
    expect(out.statusCode).toBe(200);
    expect(out.cookies.find((c) => c.name === 'pg_session')?.value).toBe('');
    expect((await call(t.app, s, 'GET', '/rest/secure/token/refresh')).statusCode).toBe(401);
  });

  it('checks the XSRF header on every secure call, the password calls included', async () => {
    const s = await signIn(t.app, u.username, u.password);
    const body = { currentPassword: u.password, newPassword: 'Whatever-2026-Pass!' };
    const missing = await call(t.app, s, 'POST', '/rest/secure/change_password/attempt', body, false);
    expect(missing.statusCode).toBe(403);
    const forged = await call(t.app, { ...s, xsrf: 'forged' }, 'GET', '/rest/secure/token/refresh');
    expect(forged.statusCode).toBe(403);
    expect((await call(t.app, null, 'GET', '/rest/secure/user_capabilities/can_change_password_ever')).statusCode).toBe(
      401,
    );
  });
});

describe('cookies and security headers', () => {
  it('sets an httpOnly, SameSite=Strict session cookie, Secure when the request came over TLS', async () => {
    const plain = await signInCall(t.app, u.username, u.password);
    const cookie = plain.cookies.find((c) => c.name === 'pg_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookie.secure).toBeFalsy();
    // A forwarded https counts only from a trusted proxy hop (TRUST_PROXY, issue 13; hostile/rate-limits.test.ts).
    const proxied = await buildTestApp({ TRUST_PROXY: '127.0.0.1' });
    try {
      const tls = await proxied.app.inject({
        method: 'POST',
        url: '/rest/token/create',
        headers: { 'x-forwarded-proto': 'https' },
        payload: { username: u.username, password: u.password },
      });
      expect(tls.cookies.find((c) => c.name === 'pg_session')).toMatchObject({ secure: true, httpOnly: true });
    } finally {
      await proxied.close();
    }
  });

  it('sends helmet headers with a CSP that allows only the portal (inline styles for Mantine)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/rest/public/password_validation/rules' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-store');

    const secure = await buildTestApp({ COOKIE_SECURE: 'true' });
    try {
      const r = await secure.app.inject({ method: 'GET', url: '/rest/public/health' });
      expect(r.headers['strict-transport-security']).toContain('max-age=31536000');
      expect(String(r.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
    } finally {
      await secure.close();
    }
  });
});

describe('rate limits (429 with a message)', () => {
  it('limits sign-in per client address and username', async () => {
    const limited = await buildTestApp({ RATE_LIMIT_SIGN_IN_MAX: '2' });
    // The limits count in PostgreSQL for every API of the run: an address no other sign-in of u's comes from.
    const remoteAddress = uniqueClientAddress();
    const signInFrom = (username: string, password: string) =>
      limited.app.inject({ method: 'POST', url: '/rest/token/create', remoteAddress, payload: { username, password } });
    try {
      expect((await signInFrom(u.username, 'Wrong-Password-1!')).statusCode).toBe(401);
      expect((await signInFrom(u.username, u.password)).statusCode).toBe(200);
      const third = await signInFrom(u.username, u.password);
      expect(third.statusCode).toBe(429);
      expect(third.json()).toEqual({ message: AUTH_MESSAGES.tooManyRequests });
      // Another username from the same address still gets through.
      expect((await signInFrom('nobody-here', 'x')).statusCode).toBe(401);
    } finally {
      await limited.close();
    }
  });

  it('limits forgot-password per client address', async () => {
    const limited = await buildTestApp({ RATE_LIMIT_FORGOT_PASSWORD_MAX: '1' });
    const remoteAddress = uniqueClientAddress();
    try {
      const send = () =>
        limited.app.inject({
          method: 'POST',
          url: '/rest/public/forgot_password',
          remoteAddress,
          payload: { emailAddress: 'nobody@example.org' },
        });
      expect((await send()).statusCode).toBe(200);
      const second = await send();
      expect(second.statusCode).toBe(429);
      expect(second.json()).toEqual({ message: AUTH_MESSAGES.tooManyRequests });
    } finally {
      await limited.close();
    }
  });
});

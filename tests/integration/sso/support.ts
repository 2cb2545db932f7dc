/**
 * The single sign-on tests' setup (issue 22): an API listening on a real port (the provider's issuer is
 * PORTAL_URL + '/oidc'), a study system registered as a confidential client, people with and without access,
 * and a browser stand-in that follows the provider's redirects with its own cookie jar, taking the portal's
 * sign-in step (POST /oidc/interaction/:uid/login) with a portal session as the portal's page does.
 */
import crypto from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, expect } from 'vitest';
import * as oidc from 'openid-client';
import { SSO_LOGIN_PATH, type SsoLoginAnswer } from '@portal/contract';
import { hashClientSecret } from '../../../api/src/shared/client-secret';
import { type Session, type TestApp, buildTestApp, createTestUser, signIn } from '../auth-helpers';

export const REDIRECT_URI = 'http://localhost:9/callback';

/** A free loopback port. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

export interface SsoStack {
  t: TestApp;
  base: string;
  issuer: string;
  close(): Promise<void>;
}

/** Starts an API with the provider on, listening on a free port. */
export async function startSsoApi(env: Record<string, string> = {}): Promise<SsoStack> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // The stack's OIDC_KEY_ENCRYPTION_KEY (global setup): every API of the run shares the stored keys.
  const t = await buildTestApp({ PORTAL_URL: base, ...env });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { t, base, issuer: `${base}/oidc`, close: () => t.close() };
}

/** One provider API for a test file: started before its tests, closed after. */
export function useSsoStack(): { readonly current: SsoStack } {
  const ref = {} as { current: SsoStack };
  beforeAll(async () => {
    ref.current = await startSsoApi();
  }, 60_000);
  afterAll(async () => ref.current?.close());
  return ref;
}

/** A study system with a confidential client. @returns its id, client id and secret. */
export async function registerSystem(t: TestApp, opts: { isPublic?: boolean } = {}) {
  const tag = crypto.randomBytes(4).toString('hex');
  const system = await t.prisma.systemAccess.create({ data: { systemName: `SSO test system ${tag}` } });
  const secret = crypto.randomBytes(24).toString('base64url');
  const clientId = `edc-${tag}`;
  await t.prisma.ssoClient.create({
    data: {
      clientId,
      systemAccessId: system.id,
      isPublic: opts.isPublic ?? false,
      secretHash: opts.isPublic ? null : await hashClientSecret(secret),
      redirectUris: [REDIRECT_URI],
      postLogoutRedirectUris: [],
      initiateLoginUri: 'http://localhost:9/login',
    },
  });
  return { systemId: system.id, clientId, secret };
}

/** A signed-in person; with `systemId`, holding an access record that grants it. */
export async function person(t: TestApp, tag: string, systemId?: number) {
  const user = await createTestUser(t, tag);
  if (systemId !== undefined) {
    await t.prisma.userAccess.create({
      data: {
        portalUserId: user.user.id,
        roleName: 'Research Pharmacist',
        siteCodes: ['MA036'],
        studyNames: ['E1234'],
        systemAccessIds: [systemId],
        createdBy: 'test',
        lastModifiedBy: 'test',
      },
    });
  }
  const session = await signIn(t.app, user.username, user.password);
  const row = await t.prisma.portalUser.findUniqueOrThrow({ where: { id: user.user.id } });
  return { user: row, session };
}

/** A browser stand-in: a cookie jar and manual redirects. */
export class Browser {
  private readonly jar = new Map<string, string>();

  constructor(private readonly base: string) {}

  private remember(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i).trim();
      const value = pair!.slice(i + 1);
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }

  /** Sends a request with the jar (plus `extra` cookies and headers); never follows redirects. */
  async fetch(url: string, init: RequestInit & { cookies?: string } = {}): Promise<Response> {
    const cookie = [...[...this.jar].map(([k, v]) => `${k}=${v}`), ...(init.cookies ? [init.cookies] : [])].join('; ');
    const res = await fetch(new URL(url, this.base), {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) },
    });
    this.remember(res);
    return res;
  }

  /** Follows redirects on the portal's own origin; stops at the first Location elsewhere or at a page. */
  async follow(url: string): Promise<{ url: string; res: Response }> {
    let current = url;
    for (let hops = 0; hops < 10; hops++) {
      const res = await this.fetch(current);
      const location = res.headers.get('location');
      if (!location || res.status < 300 || res.status >= 400) return { url: current, res };
      const next = new URL(location, new URL(current, this.base));
      if (next.origin !== this.base) return { url: next.href, res };
      current = next.href;
    }
    throw new Error(`too many redirects from ${url}`);
  }
}

/**
 * The whole front channel: authorize → the portal's step page → the portal's sign-in step with `session` →
 * resume → the system's redirect URI. @returns the step's answer and, on CONTINUE, the callback URL.
 */
export async function signInThroughPortal(browser: Browser, authorizationUrl: URL, session: Session) {
  const landed = await browser.follow(authorizationUrl.href);
  const step = /^\/app\/sso\/(?!refused$)([^/?#]+)$/.exec(new URL(landed.url).pathname);
  expect(step, `the provider should send the browser to the portal's step page, got ${landed.url}`).not.toBeNull();
  const uid = decodeURIComponent(step![1]!);
  const answer = await browser.fetch(SSO_LOGIN_PATH(uid), {
    method: 'POST',
    cookies: session.cookie,
    headers: { 'x-xsrf-token': session.xsrf, 'content-type': 'application/json' },
    body: '{}',
  });
  expect(answer.status, await answer.clone().text()).toBe(200);
  const body = (await answer.json()) as SsoLoginAnswer;
  if (body.outcome !== 'CONTINUE') return { answer: body, callback: null };
  const back = await browser.follow(body.redirectTo);
  return { answer: body, callback: new URL(back.url) };
}

/** Discovery for a confidential client (plain http is the test's loopback). */
export const discover = (issuer: string, clientId: string, secret?: string) =>
  oidc.discovery(new URL(issuer), clientId, secret, secret ? oidc.ClientSecretBasic(secret) : oidc.None(), {
    execute: [oidc.allowInsecureRequests],
  });

/**
 * A relying party and a browser driving the single sign-on code flow (issue 22), shared by the SSO tests
 * (tests/integration/sso) and the bench (tests/bench/sso.ts): a browser stand-in that follows redirects with
 * its own cookie jar, a study system registered as a confidential client, discovery, a PKCE authorization
 * request, and the portal's sign-in step (POST /oidc/interaction/:uid/login with a portal session) as the
 * portal's page takes it. Free of the test runner: failures throw.
 */
import crypto from 'node:crypto';
import * as oidc from 'openid-client';
import { SSO_LOGIN_PATH, type SsoLoginAnswer } from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import { hashClientSecret } from '@portal/db';

/** The post-logout URI every test client registers. */
export const POST_LOGOUT_URI = 'http://localhost:9/signed-out';
export const REDIRECT_URI = 'http://localhost:9/callback';

/** The portal's step page of a sign-in, /app/sso/:uid (its uid in group 1); not the refusal page. */
const STEP_PAGE = /^\/app\/sso\/(?!refused$)([^/?#]+)$/;

/** A study system with a confidential client (or a public one). @returns its id, client id and secret. */
export async function registerSystem(
  db: { prisma: PrismaClient },
  opts: { isPublic?: boolean; backchannelLogoutUri?: string } = {},
) {
  const tag = crypto.randomBytes(4).toString('hex');
  const system = await db.prisma.systemAccess.create({ data: { systemName: `SSO test system ${tag}` } });
  const secret = crypto.randomBytes(24).toString('base64url');
  const clientId = `edc-${tag}`;
  await db.prisma.ssoClient.create({
    data: {
      clientId,
      systemAccessId: system.id,
      isPublic: opts.isPublic ?? false,
      secretHash: opts.isPublic ? null : await hashClientSecret(secret),
      redirectUris: [REDIRECT_URI],
      postLogoutRedirectUris: [POST_LOGOUT_URI],
      initiateLoginUri: 'http://localhost:9/login',
      backchannelLogoutUri: opts.backchannelLogoutUri ?? null,
    },
  });
  return { systemId: system.id, clientId, secret };
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

  /**
   * Follows redirects on the browser's own origin; stops at the first Location elsewhere or for which `stopAt`
   * holds (unfetched: `res` is the redirect to it), or at a page.
   */
  async follow(url: string, stopAt?: (next: URL) => boolean): Promise<{ url: string; res: Response }> {
    let current = url;
    for (let hops = 0; hops < 10; hops++) {
      const res = await this.fetch(current);
      const location = res.headers.get('location');
      if (!location || res.status < 300 || res.status >= 400) return { url: current, res };
      const next = new URL(location, new URL(current, this.base));
      if (next.origin !== this.base || stopAt?.(next)) return { url: next.href, res };
      current = next.href;
    }
    throw new Error(`too many redirects from ${url}`);
  }
}

/**
 * The front channel up to the portal: authorize → the portal's step page (not loaded).
 * @returns the interaction's uid. @throws Error when the provider does not send the browser to the step page.
 */
export async function reachPortalStep(browser: Browser, authorizationUrl: URL): Promise<string> {
  const landed = await browser.follow(authorizationUrl.href, (next) => STEP_PAGE.test(next.pathname));
  const step = STEP_PAGE.exec(new URL(landed.url).pathname);
  if (!step) throw new Error(`the provider should send the browser to the portal's step page, got ${landed.url}`);
  return decodeURIComponent(step[1]!);
}

/**
 * The portal's sign-in step of interaction `uid` with `session` (its cookie and XSRF token), as the step page
 * posts it (also again, after a step-up or a new sign-in), then on CONTINUE resume → the system's redirect URI.
 * @returns the step's answer and, on CONTINUE, the callback URL. @throws Error when the step is not 200.
 */
export async function postPortalStep(
  browser: Browser,
  uid: string,
  session: { cookie: string; xsrf: string },
): Promise<{ answer: SsoLoginAnswer; callback: URL | null }> {
  const answer = await browser.fetch(SSO_LOGIN_PATH(uid), {
    method: 'POST',
    cookies: session.cookie,
    headers: { 'x-xsrf-token': session.xsrf, 'content-type': 'application/json' },
    body: '{}',
  });
  if (answer.status !== 200) throw new Error(`the sign-in step answered ${answer.status}: ${await answer.text()}`);
  const body = (await answer.json()) as SsoLoginAnswer;
  if (body.outcome !== 'CONTINUE') return { answer: body, callback: null };
  const back = await browser.follow(body.redirectTo);
  return { answer: body, callback: new URL(back.url) };
}

/**
 * The whole front channel: authorize → the portal's step page (not loaded) → the portal's sign-in step with
 * `session` (its cookie and XSRF token) → resume → the system's redirect URI.
 * @returns the step's answer, the interaction's uid and, on CONTINUE, the callback URL.
 * @throws Error when the provider does not send the browser to the step page or the step is not 200.
 */
export async function signInThroughPortal(
  browser: Browser,
  authorizationUrl: URL,
  session: { cookie: string; xsrf: string },
): Promise<{ answer: SsoLoginAnswer; callback: URL | null; uid: string }> {
  const uid = await reachPortalStep(browser, authorizationUrl);
  return { ...(await postPortalStep(browser, uid, session)), uid };
}

/** Discovery for a confidential client (plain http is the test's loopback). */
export const discover = (issuer: string, clientId: string, secret?: string) =>
  oidc.discovery(new URL(issuer), clientId, secret, secret ? oidc.ClientSecretBasic(secret) : oidc.None(), {
    execute: [oidc.allowInsecureRequests],
  });

/**
 * A code + PKCE (S256) authorization request for `scope` back to REDIRECT_URI (plus `extra` parameters:
 * acr_values, claims, max_age, prompt), with its verifier and state.
 */
export async function authorizationRequest(
  config: oidc.Configuration,
  scope: string,
  extra: Record<string, string> = {},
) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope,
    state,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...extra,
  });
  return { url, verifier, state };
}

/**
 * Authorization parameters PostgreSQL cannot store (RFC 6749 §4.1.1, Appendix A.5): the provider keeps a
 * request's parameters in a `jsonb` column until the sign-in finishes, and PostgreSQL's text and `jsonb` refuse
 * a NUL and a lone surrogate. Such a parameter, or a `state` outside VSCHAR (%x20-7E), is the protocol's error
 * at the system's registered redirect URI (or the 'clicked link' page when the client or the URI is not
 * known), never the portal's 'Unable to confirm your identity' and never a 5xx; a failure to store that still
 * happens is logged with its cause and shown as an error, not as an identity problem.
 */
import crypto from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import * as oidc from 'openid-client';
import { Browser, POST_LOGOUT_URI, REDIRECT_URI, registerSystem, useSsoStack } from './support';

const sso = useSsoStack();

/** Every parameter of an authorization request the provider stores with the interaction. */
const STORED_PARAMS = [
  'acr_values',
  'claims_locales',
  'client_id',
  'code_challenge',
  'code_challenge_method',
  'display',
  'id_token_hint',
  'login_hint',
  'max_age',
  'nonce',
  'prompt',
  'redirect_uri',
  'registration',
  'request',
  'request_uri',
  'response_mode',
  'response_type',
  'scope',
  'state',
  'ui_locales',
] as const;

/**
 * Percent-encodes `value` as a browser would not: a lone surrogate as its three WTF-8 bytes (what a careless
 * client sends; `encodeURIComponent` throws on it), everything else as UTF-8.
 */
function percentEncode(value: string): string {
  let out = '';
  for (const ch of value) {
    const unit = ch.charCodeAt(0);
    if (ch.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
      out += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else {
      out += encodeURIComponent(ch);
    }
  }
  return out;
}

const form = (params: Record<string, string>) =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${percentEncode(v)}`)
    .join('&');

/** A well-formed code + PKCE request of `clientId`, state 'ok-state', with `override` on top. */
async function request(clientId: string, override: Record<string, string> = {}) {
  const verifier = oidc.randomPKCECodeVerifier();
  return {
    response_type: 'code',
    scope: 'openid',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    state: 'ok-state',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...override,
  };
}

/**
 * Sends an authorization request (GET: the provider does not take the form POST, `enableHttpPostMethods` is
 * off). @returns the status and where it sends the browser.
 */
async function authorize(params: Record<string, string>) {
  const res = await new Browser(sso.current.base).fetch(`/oidc/auth?${form(params)}`);
  await res.arrayBuffer();
  return { status: res.status, location: res.headers.get('location') ?? '' };
}

/** The protocol error the system hears at its redirect URI, or null when the browser goes elsewhere. */
function atSystem(location: string): URLSearchParams | null {
  return location.startsWith(`${REDIRECT_URI}?`) ? new URL(location).searchParams : null;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('authorization parameters PostgreSQL cannot store', () => {
  it('answers a NUL in state, nonce or login_hint with invalid_request at the redirect URI', async () => {
    const system = await registerSystem(sso.current.t);
    for (const param of ['state', 'nonce', 'login_hint']) {
      const { status, location } = await authorize(await request(system.clientId, { [param]: 'a\u0000b' }));
      expect(status, param).toBe(303);
      const answer = atSystem(location);
      expect(answer, `${param}: ${location}`).not.toBeNull();
      expect(answer!.get('error'), param).toBe('invalid_request');
      expect(answer!.get('code'), param).toBeNull();
      // An invalid state is not echoed back; a valid one is.
      expect(answer!.get('state'), param).toBe(param === 'state' ? null : 'ok-state');
    }
  });

  it('answers a state outside VSCHAR with invalid_request, and takes every VSCHAR', async () => {
    const system = await registerSystem(sso.current.t);
    for (const state of ['caf\u00e9', 'tab\there', 'line\nbreak', '\u007f', '\u{1F600}']) {
      const answer = atSystem((await authorize(await request(system.clientId, { state }))).location);
      expect(answer?.get('error'), JSON.stringify(state)).toBe('invalid_request');
    }
    const every = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).join('');
    const { location } = await authorize(await request(system.clientId, { state: every }));
    expect(location).toMatch(/^\/oidc\/interaction\//);
  });

  it('never sends a refused character on to the sign-in, never answers 5xx or the identity page', async () => {
    const system = await registerSystem(sso.current.t);
    const refused = fc.constantFrom('\u0000', '\ud800', '\udbff', '\udc00', '\udfff');
    const value = fc
      .tuple(fc.string({ maxLength: 8 }), refused, fc.string({ maxLength: 8 }))
      .map(([a, bad, b]) => `${a}${bad}${b}`);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...STORED_PARAMS), value, async (param, bad) => {
        const { status, location } = await authorize(await request(system.clientId, { [param]: bad }));
        const label = `${param}=${JSON.stringify(bad)} -> ${status} ${location}`;
        expect(status, label).toBeGreaterThanOrEqual(300);
        expect(status, label).toBeLessThan(400);
        expect(location, label).not.toContain('case=identity');
        expect(location, label).not.toContain('case=error');
        const answer = atSystem(location);
        if (answer) {
          expect(answer.get('error'), label).toBeTruthy();
          expect(answer.get('code'), label).toBeNull();
        } else if (!location.startsWith('/oidc/interaction/')) {
          expect(location, label).toMatch(/^\/app\/sso\/refused\?case=(invalidLink|undetermined)$/);
        }
        // A NUL survives the URL's decoding; it must never reach the stored interaction. (A lone surrogate
        // arrives as U+FFFD, which PostgreSQL stores, so only a state rejects it.)
        if (bad.includes('\u0000') || param === 'state') {
          expect(location, label).not.toMatch(/^\/oidc\/interaction\//);
        }
      }),
      { seed: 36_2026, numRuns: 60 },
    );
  });

  it('logs a failure to store the interaction with its cause and shows an error, not an identity problem', async () => {
    const system = await registerSystem(sso.current.t);
    // PostgreSQL refuses one interaction: a check constraint on this test's own nonce (NOT VALID: existing
    // rows are not checked, and no other request carries the nonce).
    const nonce = `refuse-${crypto.randomBytes(6).toString('hex')}`;
    const constraint = `refuse_${nonce.slice(7)}`;
    const { prisma } = sso.current.t;
    await prisma.$executeRawUnsafe(
      `ALTER TABLE "OidcPayload" ADD CONSTRAINT "${constraint}" CHECK ("payload"->'params'->>'nonce' IS DISTINCT FROM '${nonce}') NOT VALID`,
    );
    const logged = vi.spyOn(sso.current.t.app.log, 'error');
    try {
      const { status, location } = await authorize(await request(system.clientId, { nonce }));
      expect(status).toBe(303);
      expect(location).toBe('/app/sso/refused?case=error');
    } finally {
      await prisma.$executeRawUnsafe(`ALTER TABLE "OidcPayload" DROP CONSTRAINT "${constraint}"`);
    }
    const lines = logged.mock.calls.map((call) =>
      JSON.stringify(call, (_k, v: unknown) => (v instanceof Error ? `${v.message}` : v)),
    );
    expect(
      lines.some((line) => line.includes(constraint)),
      lines.join('\n'),
    ).toBe(true);
  });

  it("refuses a logout request's state or hint PostgreSQL cannot store on the 'clicked link' page", async () => {
    const system = await registerSystem(sso.current.t);
    for (const [param, bad] of [
      ['state', 'a\u0000b'],
      ['state', 'caf\u00e9'],
      ['logout_hint', 'a\u0000b'],
      ['ui_locales', 'en\u0000'],
    ]) {
      const query = form({ client_id: system.clientId, post_logout_redirect_uri: POST_LOGOUT_URI, [param!]: bad! });
      const res = await new Browser(sso.current.base).fetch(`/oidc/session/end?${query}`);
      await res.arrayBuffer();
      expect(res.status, `${param}=${JSON.stringify(bad)}`).toBe(303);
      expect(res.headers.get('location'), `${param}=${JSON.stringify(bad)}`).toBe('/app/sso/refused?case=invalidLink');
    }
  });
});

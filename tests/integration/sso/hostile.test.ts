/**
 * The provider under hostile input and across processes (issue 22 Tests): redirect URI variants of a
 * registered one (an open redirect), plain PKCE, a replayed code, oversized parameters (each a clean refusal,
 * nothing issued, never a 5xx); and two API processes behind one issuer sharing the interaction, the code
 * and the grant through PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import * as oidc from 'openid-client';
import { buildTestApp } from '../auth-helpers';
import {
  Browser,
  REDIRECT_URI,
  discover,
  freePort,
  person,
  registerSystem,
  signInThroughPortal,
  useSsoStack,
} from './support';

const sso = useSsoStack();

const authorizeQuery = (params: Record<string, string>) =>
  `/oidc/auth?${new URLSearchParams({ response_type: 'code', scope: 'openid', ...params })}`;

describe('the provider under hostile input (issue 22)', () => {
  it('refuses every variant of a registered redirect URI on the portal page, never redirecting there', async () => {
    const system = await registerSystem(sso.current.t);
    const variants = [
      `${REDIRECT_URI}/extra`,
      `${REDIRECT_URI}?next=https://evil.example`,
      REDIRECT_URI.replace('callback', 'CALLBACK'),
      REDIRECT_URI.replace('http://', 'http://user:pass@'),
      REDIRECT_URI.replace('localhost:9', 'localhost:10'),
      'https://evil.example/callback',
    ];
    const browser = new Browser(sso.current.base);
    for (const redirect_uri of variants) {
      const res = await browser.fetch(authorizeQuery({ client_id: system.clientId, redirect_uri }));
      expect(res.status, redirect_uri).toBe(303);
      expect(res.headers.get('location'), redirect_uri).toBe('/app/sso/refused?case=invalidLink');
    }
  });

  it('refuses plain PKCE and oversized parameters without a 5xx', async () => {
    const pub = await registerSystem(sso.current.t, { isPublic: true });
    const browser = new Browser(sso.current.base);
    const plain = await browser.fetch(
      authorizeQuery({
        client_id: pub.clientId,
        redirect_uri: REDIRECT_URI,
        code_challenge: 'a'.repeat(43),
        code_challenge_method: 'plain',
      }),
    );
    expect(plain.status).toBe(303);
    expect(new URL(plain.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');

    const huge = await browser.fetch(
      authorizeQuery({ client_id: pub.clientId, redirect_uri: REDIRECT_URI, state: 'x'.repeat(6000) }),
    );
    expect(huge.status).toBeLessThan(500);
    const token = await fetch(`${sso.current.issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: 'c'.repeat(100_000),
        client_id: pub.clientId,
      }),
    });
    expect(token.status).toBeGreaterThanOrEqual(400);
    expect(token.status).toBeLessThan(500);
  });

  it('answers a replayed code invalid_grant and revokes what the first exchange issued', async () => {
    const system = await registerSystem(sso.current.t);
    const { user, session } = await person(sso.current.t, 'ssoreplay', system.systemId);
    const config = await discover(sso.current.issuer, system.clientId, system.secret);
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: 'openid',
      state,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const { callback } = await signInThroughPortal(new Browser(sso.current.base), url, session);
    const first = await oidc.authorizationCodeGrant(config, callback!, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    await expect(
      oidc.authorizationCodeGrant(config, callback!, { pkceCodeVerifier: verifier, expectedState: state }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(oidc.fetchUserInfo(config, first.access_token, user.subjectId)).rejects.toBeTruthy();
  });
});

describe('two API processes behind one issuer (issue 22)', () => {
  it('share the interaction, the code and the grant', async () => {
    const system = await registerSystem(sso.current.t);
    const { user, session } = await person(sso.current.t, 'sso2proc', system.systemId);
    // A second process with the same PORTAL_URL (so the same issuer), listening on a port of its own.
    const port = await freePort();
    const second = await buildTestApp({ PORTAL_URL: sso.current.base });
    await second.app.listen({ port, host: '127.0.0.1' });
    try {
      const config = await discover(sso.current.issuer, system.clientId, system.secret);
      const verifier = oidc.randomPKCECodeVerifier();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: REDIRECT_URI,
        scope: 'openid email',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      });
      const { callback } = await signInThroughPortal(new Browser(sso.current.base), url, session);
      const code = callback!.searchParams.get('code')!;
      const basic = Buffer.from(`${encodeURIComponent(system.clientId)}:${encodeURIComponent(system.secret)}`).toString(
        'base64',
      );
      const token = await fetch(`http://127.0.0.1:${port}/oidc/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: REDIRECT_URI,
          code_verifier: verifier,
        }),
      });
      expect(token.status, await token.clone().text()).toBe(200);
      const { access_token } = (await token.json()) as { access_token: string };
      const info = await fetch(`http://127.0.0.1:${port}/oidc/me`, {
        headers: { authorization: `Bearer ${access_token}` },
      });
      expect(info.status).toBe(200);
      expect(await info.json()).toMatchObject({ sub: user.subjectId, email: user.email });
    } finally {
      await second.close();
    }
  });
});

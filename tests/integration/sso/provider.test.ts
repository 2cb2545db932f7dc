/**
 * The portal as the network's OpenID Connect provider (issue 22), with openid-client as the relying party
 * against the real API (listening), PostgreSQL and slapd: discovery, code + PKCE, the ID token verified against
 * the JWKS, userinfo claims per scope, refresh rotation, the refusal cases, and a removal of access (by the
 * Access tab, deactivation or the access expiry) that ends the next refresh.
 */
import { describe, expect, it } from 'vitest';
import * as oidc from 'openid-client';
import { addDays, dayIn, ssoRefusalText } from '@portal/contract';
import { expireAccess } from '@portal/db';
import { buildTestApp, call, signIn } from '../auth-helpers';
import {
  Browser,
  POST_LOGOUT_URI,
  REDIRECT_URI,
  authorizationRequest,
  discover,
  person,
  registerSystem,
  signInThroughPortal,
  useSsoStack,
} from './support';

const sso = useSsoStack();

const authorize = authorizationRequest;

describe('the provider (issue 22)', () => {
  it('signs a person with access in through the portal and tells the system their study access', async () => {
    const system = await registerSystem(sso.current.t);
    const { user, session } = await person(sso.current.t, 'ssoyes', system.systemId);
    const config = await discover(sso.current.issuer, system.clientId, system.secret);
    expect(config.serverMetadata().code_challenge_methods_supported).toEqual(['S256']);
    expect(config.serverMetadata().response_types_supported).toEqual(['code']);
    expect(config.serverMetadata().portal_project_id).toBe(119); // 000 §1, the test environment's

    const { url, verifier, state } = await authorize(config, 'openid profile email study_access');
    const { answer, callback } = await signInThroughPortal(new Browser(sso.current.base), url, session);
    expect(answer.outcome).toBe('CONTINUE');
    expect(callback!.href.startsWith(REDIRECT_URI)).toBe(true);
    expect(
      await sso.current.t.prisma.auditEvent.count({
        where: { entityType: 'SsoClient', entityId: system.clientId, actorUserId: user.id, action: 'SSO_SIGN_IN' },
      }),
    ).toBe(1);

    const tokens = await oidc.authorizationCodeGrant(config, callback!, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    const claims = tokens.claims()!;
    expect(claims.sub).toBe(user.subjectId);
    expect(claims.aud).toBe(system.clientId);
    const info = await oidc.fetchUserInfo(config, tokens.access_token, user.subjectId);
    expect(info).toMatchObject({
      sub: user.subjectId,
      email: user.email,
      email_verified: true,
      given_name: user.firstName,
      family_name: user.lastName,
      study_access: [{ studyRole: 'Research Pharmacist', aoCodes: ['MA036'], laoCodes: [], studies: ['E1234'] }],
    });
    expect(info).not.toHaveProperty('portal_roles');

    // Refresh tokens rotate; the old one is then refused.
    expect(tokens.refresh_token).toBeTruthy();
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });

    // Access removed: the next refresh fails.
    const again = await authorize(config, 'openid');
    const second = await signInThroughPortal(new Browser(sso.current.base), again.url, session);
    const fresh = await oidc.authorizationCodeGrant(config, second.callback!, {
      pkceCodeVerifier: again.verifier,
      expectedState: again.state,
    });
    await sso.current.t.prisma.userAccess.updateMany({ where: { portalUserId: user.id }, data: { inactive: true } });
    await expect(oidc.refreshTokenGrant(config, fresh.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it("refuses a person without access to the system with the spec's text, without a callback", async () => {
    const system = await registerSystem(sso.current.t);
    const { user, session } = await person(sso.current.t, 'ssono');
    const config = await discover(sso.current.issuer, system.clientId, system.secret);
    const { url } = await authorize(config, 'openid');
    const { answer, callback } = await signInThroughPortal(new Browser(sso.current.base), url, session);
    expect(callback).toBeNull();
    expect(answer).toMatchObject({
      outcome: 'REFUSED',
      case: 'notAuthorized',
      message: ssoRefusalText('notAuthorized'),
      system: { id: system.systemId },
    });
    const audited = await sso.current.t.prisma.auditEvent.findFirst({
      where: { entityType: 'SsoClient', entityId: system.clientId, actorUserId: user.id },
    });
    expect(audited).toMatchObject({ action: 'SSO_REFUSED', after: { case: 'notAuthorized' } });
  });

  it('ends an unknown client, an unregistered redirect URI and a missing client on the portal refusal page', async () => {
    const system = await registerSystem(sso.current.t);
    const browser = new Browser(sso.current.base);
    const authorizeUrl = (params: Record<string, string>) =>
      `/oidc/auth?${new URLSearchParams({ response_type: 'code', scope: 'openid', ...params })}`;
    const cases: Array<[Record<string, string>, string]> = [
      [{ client_id: 'no-such-client', redirect_uri: REDIRECT_URI }, 'invalidLink'],
      [{ client_id: system.clientId, redirect_uri: 'http://localhost:9/elsewhere' }, 'invalidLink'],
      [{ redirect_uri: REDIRECT_URI }, 'undetermined'],
    ];
    for (const [params, kase] of cases) {
      const res = await browser.fetch(authorizeUrl(params));
      expect(res.status, JSON.stringify(params)).toBe(303);
      expect(res.headers.get('location')).toBe(`/app/sso/refused?case=${kase}`);
    }
  });

  it('refuses a public client without PKCE and a wrong client secret', async () => {
    const pub = await registerSystem(sso.current.t, { isPublic: true });
    const res = await new Browser(sso.current.base).fetch(
      `/oidc/auth?${new URLSearchParams({ client_id: pub.clientId, response_type: 'code', scope: 'openid', redirect_uri: REDIRECT_URI })}`,
    );
    // PKCE missing: the provider answers the system (its redirect URI is known) with invalid_request.
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!);
    expect(location.href.startsWith(REDIRECT_URI)).toBe(true);
    expect(location.searchParams.get('error')).toBe('invalid_request');

    const conf = await registerSystem(sso.current.t);
    const wrong = await discover(sso.current.issuer, conf.clientId, 'not-the-secret');
    await expect(oidc.refreshTokenGrant(wrong, 'x')).rejects.toMatchObject({
      status: 401,
      cause: [{ parameters: { error: 'invalid_client' } }],
    });
  });

  /** A person holding `systemId`, signed in to it through the portal: one grant, and their tokens. */
  const signedInWithGrant = async (config: oidc.Configuration, systemId: number, tag: string) => {
    const p = await person(sso.current.t, tag, systemId);
    const { url, verifier, state } = await authorize(config, 'openid');
    const { callback } = await signInThroughPortal(new Browser(sso.current.base), url, p.session);
    const tokens = await oidc.authorizationCodeGrant(config, callback!, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(await grantsOf(p.user.subjectId)).toBe(1);
    return { ...p, tokens };
  };
  const grantsOf = async (subjectId: string) =>
    (
      await sso.current.t.prisma.$queryRaw<[{ n: number }]>`
        SELECT count(*)::int AS n FROM "OidcPayload" WHERE "kind" = 'Grant' AND "payload"->>'accountId' = ${subjectId}`
    )[0].n;

  it("revokes the grants of a removed system in the writer's transaction, and all of them on deactivation", async () => {
    const system = await registerSystem(sso.current.t);
    const config = await discover(sso.current.issuer, system.clientId, system.secret);
    const signedIn = (tag: string) => signedInWithGrant(config, system.systemId, tag);
    const admin = await signIn(sso.current.t.app, 'reviewer');

    // The admin's Access tab takes the system away (000 §7 PUT user_access/user/{id}).
    const removed = await signedIn('ssorm');
    const res = await call(sso.current.t.app, admin, 'PUT', `/rest/secure/user_access/user/${removed.user.id}`, {
      userAccesses: [],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await grantsOf(removed.user.subjectId)).toBe(0);
    await expect(oidc.refreshTokenGrant(config, removed.tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });

    // Deactivation ends every grant of the person.
    const deactivated = await signedIn('ssodeact');
    const off = await call(
      sso.current.t.app,
      admin,
      'PUT',
      `/rest/secure/user_management/deactivate_user/${deactivated.user.id}`,
    );
    expect(off.statusCode, off.body).toBe(200);
    expect(await grantsOf(deactivated.user.subjectId)).toBe(0);
    await expect(oidc.refreshTokenGrant(config, deactivated.tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('revokes the grants of an access the expiry removes (issue 25), as any removal by the writer', async () => {
    const system = await registerSystem(sso.current.t);
    const config = await discover(sso.current.issuer, system.clientId, system.secret);
    const p = await signedInWithGrant(config, system.systemId, 'ssoexp');
    const { prisma } = sso.current.t;
    // The access ended yesterday (set in the database: the API refuses an end date in the past).
    const yesterday = addDays(dayIn('UTC', new Date()), -1);
    await prisma.userAccess.updateMany({
      where: { portalUserId: p.user.id },
      data: { accessEndDate: new Date(`${yesterday}T00:00:00Z`) },
    });
    // What the expiry's activity runs for the person: the one writer's expireAccess.
    const expired = await prisma.$transaction((tx) =>
      expireAccess(tx, p.user.id, dayIn('UTC', new Date()), { username: 'system' }),
    );
    expect(expired).toHaveLength(1);
    expect(await grantsOf(p.user.subjectId)).toBe(0);
    await expect(oidc.refreshTokenGrant(config, p.tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('answers prompt=none with the protocol error at the system, before and after access ends', async () => {
    const system = await registerSystem(sso.current.t);
    const { user, session } = await person(sso.current.t, 'ssonone', system.systemId);
    const config = await discover(sso.current.issuer, system.clientId, system.secret);
    const browser = new Browser(sso.current.base);
    const silent = async () => {
      const { url } = await authorize(config, 'openid');
      url.searchParams.set('prompt', 'none');
      const landed = await browser.follow(url.href);
      return new URL(landed.url);
    };
    // No provider session yet: the system hears login_required, the person sees nothing.
    const first = await silent();
    expect(first.href.startsWith(REDIRECT_URI)).toBe(true);
    expect(first.searchParams.get('error')).toBe('login_required');

    // Signed in once: a silent sign-in succeeds with a code.
    const { url } = await authorize(config, 'openid');
    await signInThroughPortal(browser, url, session);
    const again = await silent();
    expect(again.searchParams.get('code')).toBeTruthy();

    // The access ended: the silent sign-in is refused to the system, no code.
    await sso.current.t.prisma.userAccess.updateMany({ where: { portalUserId: user.id }, data: { inactive: true } });
    const ended = await silent();
    expect(ended.href.startsWith(REDIRECT_URI), ended.href).toBe(true);
    expect(ended.searchParams.get('code')).toBeNull();
    expect(ended.searchParams.get('error')).toBe('login_required');

    // And the next interactive attempt ends on the portal's 'not authorized' page (the Done-when of issue 22).
    const next = await authorize(config, 'openid');
    const { answer } = await signInThroughPortal(browser, next.url, session);
    expect(answer).toMatchObject({
      outcome: 'REFUSED',
      case: 'notAuthorized',
      message: ssoRefusalText('notAuthorized'),
    });
  });

  it("signs out through the portal's accessible logout page and returns to the system's post-logout URI", async () => {
    const system = await registerSystem(sso.current.t);
    const { session } = await person(sso.current.t, 'ssoout', system.systemId);
    const config = await discover(sso.current.issuer, system.clientId, system.secret);
    const browser = new Browser(sso.current.base);
    const { url, verifier, state } = await authorize(config, 'openid');
    const { callback } = await signInThroughPortal(browser, url, session);
    const tokens = await oidc.authorizationCodeGrant(config, callback!, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });

    const end = oidc.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: POST_LOGOUT_URI,
    });
    const confirm = await browser.fetch(end.href);
    expect(confirm.status).toBe(200);
    expect(confirm.headers.get('content-security-policy')).toContain("form-action 'self' http://localhost:9");
    const html = await confirm.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<h1>Sign out</h1>');
    const action = /<form id="op.logoutForm" method="post" action="([^"]+)"/.exec(html)![1]!;
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)![1]!;
    const done = await browser.fetch(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
    });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')!.startsWith(POST_LOGOUT_URI)).toBe(true);
  });

  it("tells the browser the provider's one configured name at run time", async () => {
    const t = await buildTestApp({ SSO_PROVIDER_NAME: 'Example Research Network' });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/rest/public/sso/config' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ providerName: 'Example Research Network' });
    } finally {
      await t.close();
    }
  });
});

/**
 * Sign-in levels of single sign-on (issue 37 "Study systems can ask for it"; docs/decisions.md "Sign-in
 * levels"), with openid-client as the relying party against the real API, PostgreSQL and slapd:
 * - discovery publishes the three levels, lowest first; every ID token has `acr`, `amr` (RFC 8176) and
 *   `auth_time` (the portal session's sign-in), for a password-only sign-in and after the second step;
 * - the multi-factor level asked in `acr_values`, by the client's default or as an essential `acr` claim steps
 *   a password-only session up (the portal's step answers STEP_UP; the second step, then the same step again);
 *   a person without a factor is refused with 'noSecondFactor'; an essential claim of no published level is
 *   the system's `unmet_authentication_requirements`;
 * - `max_age` and `prompt=login` answer SIGN_IN_AGAIN to an older session; a new sign-in (which replaces the
 *   browser's session) then continues with a newer `auth_time`.
 * Second factors are enrolled through the real store (auth/totp.ts, auth/recovery-codes.ts); a code is
 * accepted once per 30-second step, so a second one in a test is a recovery code.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oidc from 'openid-client';
import { ACR, ssoRefusalText } from '@portal/contract';
import { ARGON2_DEFAULTS } from '@portal/directory';
import { totpCode } from '../../../api/src/auth/totp';
import { issueRecoveryCodes } from '../../../api/src/auth/recovery-codes';
import { createTestUser } from '../auth-helpers';
import { caller, type Session } from '../harness';
import { until } from '../lifecycle/support';
import {
  Browser,
  REDIRECT_URI,
  authorizationRequest,
  discover,
  grantSystem,
  postPortalStep,
  registerSystem,
  signInThroughPortal,
  startSsoApi,
  type SsoStack,
} from './support';
import { enrolConfirmed } from '../../support/totp-codes';

const KEY = crypto.randomBytes(32).toString('base64url');
let sso: SsoStack;
beforeAll(async () => {
  sso = await startSsoApi({ SECOND_FACTOR_KEY: KEY });
});
afterAll(async () => sso?.close());

type Person = { id: number; username: string; password: string; subjectId: string };

/** A person holding `systemId`; with `factor`, a confirmed authenticator app (and ten recovery codes). */
async function member(tag: string, systemId: number) {
  const u = await createTestUser(sso.t, tag);
  await grantSystem(sso.t, u.user.id, systemId);
  const who: Person = { id: u.user.id, username: u.username, password: u.password, subjectId: u.user.subjectId };
  return who;
}

/** Enrols a confirmed authenticator app (confirmed with the code of 30 s ago) and recovery codes for `p`. */
async function enrol(p: Person): Promise<{ secret: string; recovery: string[] }> {
  // Confirmed with no code used: the sign-in takes the current one (support/totp-codes.ts).
  const enrolment = await enrolConfirmed(sso.t.prisma, KEY, p, 'Phone');
  return { secret: enrolment.secret, recovery: await issueRecoveryCodes(sso.t.prisma, p.id, ARGON2_DEFAULTS) };
}

/** POST /rest/secure/token/second_factor with `body` on session `s`; expects 200. */
async function secondStep(s: Session, body: { code: string } | { recoveryCode: string }): Promise<void> {
  const res = await caller(sso.t.app)(s, 'POST', '/rest/secure/token/second_factor', body);
  expect(res.statusCode, res.body).toBe(200);
}

/**
 * Signs `p` in with the password (sending `replacing`'s cookie, as a browser that has a session does) and,
 * when given, takes the second step with it.
 */
async function signInAs(
  p: Person,
  second?: { code: string } | { recoveryCode: string },
  replacing?: Session,
): Promise<Session> {
  const res = await sso.t.app.inject({
    method: 'POST',
    url: '/rest/token/create',
    payload: { username: p.username, password: p.password },
    ...(replacing ? { headers: { cookie: replacing.cookie } } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
  const cookie = res.cookies.find((c) => c.name === 'pg_session')!;
  const s: Session = { cookie: `pg_session=${cookie.value}`, xsrf: res.json().xsrfToken, body: res.json() };
  if (second) await secondStep(s, second);
  return s;
}

/** The tokens of a callback, checked by openid-client (with `maxAge` when the request had max_age). */
const tokensOf = (
  config: oidc.Configuration,
  callback: URL,
  req: { verifier: string; state: string },
  maxAge?: number,
) =>
  oidc.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: req.verifier,
    expectedState: req.state,
    ...(maxAge === undefined ? {} : { maxAge }),
  });

/** The session row's sign-in time in seconds (the ID token's auth_time). */
async function authTimeOf(s: Session): Promise<number> {
  const id = crypto.createHash('sha256').update(s.cookie.slice('pg_session='.length)).digest('hex');
  const row = await sso.t.prisma.session.findUniqueOrThrow({ where: { id } });
  return Math.floor(row.authenticatedAt.getTime() / 1000);
}

/** Waits, polling, until the clock is more than `seconds` past `epochSeconds`. */
const pastBy = (epochSeconds: number, seconds: number) =>
  until(
    async () => Math.floor(Date.now() / 1000) - epochSeconds > seconds,
    `${seconds} s past ${epochSeconds}`,
    10_000,
  );

/** A system (with `defaultAcr`), its relying party and a person holding it. */
async function setUp(tag: string, defaultAcr: string | null = null) {
  const system = await registerSystem(sso.t);
  if (defaultAcr) await sso.t.prisma.ssoClient.update({ where: { clientId: system.clientId }, data: { defaultAcr } });
  const config = await discover(sso.issuer, system.clientId, system.secret);
  return { system, config, p: await member(tag, system.systemId), browser: new Browser(sso.base) };
}

describe('sign-in levels in discovery and the ID token', () => {
  it('publishes the levels lowest first; a password sign-in says pwd, its method and its time', async () => {
    const { config, p, browser } = await setUp('lvlpwd');
    expect(config.serverMetadata().acr_values_supported).toEqual([
      ACR.password,
      ACR.multiFactor,
      ACR.phishingResistant,
    ]);
    expect(config.serverMetadata().claims_supported).toEqual(expect.arrayContaining(['acr', 'amr', 'auth_time']));
    expect(config.serverMetadata().claims_parameter_supported).toBe(true);

    const s = await signInAs(p);
    const req = await authorizationRequest(config, 'openid');
    const { callback } = await signInThroughPortal(browser, req.url, s);
    const claims = (await tokensOf(config, callback!, req)).claims()!;
    expect(claims).toMatchObject({ acr: ACR.password, amr: ['pwd'], auth_time: await authTimeOf(s) });
  });

  it('says mfa with pwd, otp and mfa after a sign-in with the second step', async () => {
    const { config, p, browser } = await setUp('lvlotp');
    const { secret } = await enrol(p);
    const s = await signInAs(p, { code: await totpCode(secret) });
    const req = await authorizationRequest(config, 'openid');
    const { callback } = await signInThroughPortal(browser, req.url, s);
    const claims = (await tokensOf(config, callback!, req)).claims()!;
    expect(claims).toMatchObject({ acr: ACR.multiFactor, amr: ['pwd', 'otp', 'mfa'], auth_time: await authTimeOf(s) });
  });
});

describe('a system asking for the multi-factor level', () => {
  /** Asks with `extra`, expects STEP_UP for the password-only session, steps up with `second`, goes on. */
  async function stepsUp(
    ctx: Awaited<ReturnType<typeof setUp>>,
    extra: Record<string, string>,
    second: (f: { secret: string; recovery: string[] }) => Promise<{ code: string } | { recoveryCode: string }>,
  ) {
    const { config, p, browser } = ctx;
    // Signed in with the password before the factor existed: a full session at the password level.
    const s = await signInAs(p);
    const factor = await enrol(p);
    const req = await authorizationRequest(config, 'openid', extra);
    const first = await signInThroughPortal(browser, req.url, s);
    expect(first.answer).toEqual({ outcome: 'STEP_UP' });
    expect(first.callback).toBeNull();
    await secondStep(s, await second(factor));
    const { answer, callback } = await postPortalStep(browser, first.uid, s);
    expect(answer.outcome).toBe('CONTINUE');
    expect(callback!.href.startsWith(REDIRECT_URI)).toBe(true);
    const claims = (await tokensOf(config, callback!, req)).claims()!;
    expect(claims).toMatchObject({ acr: ACR.multiFactor, amr: ['pwd', 'otp', 'mfa'], sub: p.subjectId });
    // The step-up kept the session's sign-in time.
    expect(claims.auth_time).toBe(await authTimeOf(s));
    return { s, req };
  }

  it('in acr_values: steps a password session up with a code, then the provider session meets it silently', async () => {
    const ctx = await setUp('lvlacr');
    await stepsUp(ctx, { acr_values: ACR.multiFactor }, async (f) => ({ code: await totpCode(f.secret) }));
    const again = await authorizationRequest(ctx.config, 'openid', { acr_values: ACR.multiFactor, prompt: 'none' });
    const silent = new URL((await ctx.browser.follow(again.url.href)).url);
    expect(silent.searchParams.get('code'), silent.href).toBeTruthy();
  });

  it("by the client's default (Configure → Systems): the same step-up, here with a recovery code", async () => {
    const ctx = await setUp('lvldef', ACR.multiFactor);
    await stepsUp(ctx, {}, async (f) => ({ recoveryCode: f.recovery[0]! }));
  });

  it('as an essential acr claim; one naming no published level is the system’s unmet_authentication_requirements', async () => {
    const ctx = await setUp('lvlclaim');
    const claims = (values: string[]) => JSON.stringify({ id_token: { acr: { essential: true, values } } });
    await stepsUp(ctx, { claims: claims([ACR.multiFactor]) }, async (f) => ({ recoveryCode: f.recovery[1]! }));

    const s = await signInAs(ctx.p, { recoveryCode: (await enrol(ctx.p)).recovery[0]! });
    const req = await authorizationRequest(ctx.config, 'openid', { claims: claims(['urn:elsewhere:acr:gold']) });
    const { answer, callback } = await signInThroughPortal(ctx.browser, req.url, s);
    expect(answer.outcome).toBe('CONTINUE');
    expect(callback!.href.startsWith(REDIRECT_URI)).toBe(true);
    expect(callback!.searchParams.get('error')).toBe('unmet_authentication_requirements');
  });

  it('refuses a person without a second factor on the portal page that says why', async () => {
    const { config, p, browser, system } = await setUp('lvlnone');
    const s = await signInAs(p);
    const req = await authorizationRequest(config, 'openid', { acr_values: ACR.multiFactor });
    const { answer, callback } = await signInThroughPortal(browser, req.url, s);
    expect(callback).toBeNull();
    expect(answer).toMatchObject({
      outcome: 'REFUSED',
      case: 'noSecondFactor',
      message: ssoRefusalText('noSecondFactor'),
      system: { id: system.systemId },
    });
    const audited = await sso.t.prisma.auditEvent.findFirst({
      where: { entityType: 'SsoClient', entityId: system.clientId, actorUserId: p.id },
    });
    expect(audited).toMatchObject({ action: 'SSO_REFUSED', after: { case: 'noSecondFactor' } });
  });
});

describe('asking again: max_age and prompt=login', () => {
  it('max_age older than the session asks for a new sign-in, which replaces the session and is newer', async () => {
    const { config, p, browser } = await setUp('lvlage');
    const old = await signInAs(p);
    const first = await authorizationRequest(config, 'openid');
    const t1 = (await tokensOf(config, (await signInThroughPortal(browser, first.url, old)).callback!, first)).claims()!
      .auth_time!;
    await pastBy(t1, 1);

    const req = await authorizationRequest(config, 'openid', { max_age: '1' });
    const asked = await signInThroughPortal(browser, req.url, old);
    expect(asked.answer).toEqual({ outcome: 'SIGN_IN_AGAIN' });
    // The sign-in page with the browser's live session: the new session replaces it.
    const fresh = await signInAs(p, undefined, old);
    expect((await caller(sso.t.app)(old, 'GET', '/rest/secure/user_profile')).statusCode).toBe(401);
    const { answer, callback } = await postPortalStep(browser, asked.uid, fresh);
    expect(answer.outcome).toBe('CONTINUE');
    const claims = (await tokensOf(config, callback!, req, 1)).claims()!;
    expect(claims.auth_time).toBeGreaterThan(t1);
    expect(claims.auth_time).toBe(await authTimeOf(fresh));
    expect(claims).toMatchObject({ acr: ACR.password, amr: ['pwd'] });
  });

  it('prompt=login asks again even for a fresh provider session; the new sign-in takes the second step', async () => {
    const { config, p, browser } = await setUp('lvlprompt');
    const { secret, recovery } = await enrol(p);
    const old = await signInAs(p, { code: await totpCode(secret) });
    const first = await authorizationRequest(config, 'openid');
    const t1 = (await tokensOf(config, (await signInThroughPortal(browser, first.url, old)).callback!, first)).claims()!
      .auth_time!;
    await pastBy(t1, 0);

    const req = await authorizationRequest(config, 'openid', { prompt: 'login' });
    const asked = await signInThroughPortal(browser, req.url, old);
    expect(asked.answer).toEqual({ outcome: 'SIGN_IN_AGAIN' });
    // The password alone leaves the new session waiting for its second step: the step is not open to it.
    const fresh = await signInAs(p, undefined, old);
    expect(fresh.body).toMatchObject({ secondFactor: { methods: ['TOTP', 'RECOVERY_CODE'] } });
    await secondStep(fresh, { recoveryCode: recovery[0]! });
    const { answer, callback } = await postPortalStep(browser, asked.uid, fresh);
    expect(answer.outcome).toBe('CONTINUE');
    const claims = (await tokensOf(config, callback!, req)).claims()!;
    expect(claims.auth_time).toBeGreaterThan(t1);
    expect(claims).toMatchObject({ acr: ACR.multiFactor, amr: ['pwd', 'otp', 'mfa'] });
  });
});

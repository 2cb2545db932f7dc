/**
 * The phishing-resistant sign-in level (docs/decisions.md "Passkeys", "Sign-in levels"), with openid-client as
 * the relying party against the real API: a passkey sign-in meets `urn:portal:acr:phr` (`amr` hwk + mfa); a
 * session that used a one-time code is stepped up (STEP_UP with the level) and a passkey's answer on the full
 * session meets it; a person without a passkey is refused with 'noPasskey'.
 */
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACR, ssoRefusalText } from '@portal/contract';
import { totpCode } from '../../../api/src/auth/totp';
import { enrolConfirmed } from '../../support/totp-codes';
import { createTestUser } from '../auth-helpers';
import { caller } from '../harness';
import {
  Browser,
  authorizationRequest,
  discover,
  grantSystem,
  postPortalStep,
  registerSystem,
  signInThroughPortal,
  startSsoApi,
  type SsoStack,
} from '../sso/support';
import {
  KEY,
  authenticator,
  enrolPasskey,
  passkeyEnv,
  passkeySignInCall,
  passwordSignIn,
  sessionOf,
  signInOptions,
  stepOptions,
} from './helpers';

let sso: SsoStack;
beforeAll(async () => {
  sso = await startSsoApi(passkeyEnv());
});
afterAll(async () => sso?.close());

/** A system, its relying party and a person holding it. */
async function setUp(tag: string) {
  const system = await registerSystem(sso.t);
  const config = await discover(sso.issuer, system.clientId, system.secret);
  const user = await createTestUser(sso.t, tag);
  await grantSystem(sso.t, user.user.id, system.systemId);
  return { system, config, user, browser: new Browser(sso.base) };
}

const claimsOf = async (
  config: oidc.Configuration,
  callback: URL,
  req: { verifier: string; state: string },
): Promise<Record<string, unknown>> =>
  (
    await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: req.verifier, expectedState: req.state })
  ).claims()!;

const PHR = { acr_values: ACR.phishingResistant };

describe('a system asking for the phishing-resistant level', () => {
  it('is met by a passkey sign-in', async () => {
    const { config, user, browser } = await setUp('phrkey');
    const key = authenticator();
    await enrolPasskey(sso.t, user, key);
    const res = await passkeySignInCall(sso.t, key.assert(await signInOptions(sso.t)));
    expect(res.statusCode, res.body).toBe(200);
    const req = await authorizationRequest(config, 'openid', PHR);
    const { answer, callback } = await signInThroughPortal(browser, req.url, sessionOf(res));
    expect(answer.outcome).toBe('CONTINUE');
    expect(await claimsOf(config, callback!, req)).toMatchObject({ acr: ACR.phishingResistant, amr: ['hwk', 'mfa'] });
  });

  it('steps a session that used a code up to a passkey', async () => {
    const { config, user, browser } = await setUp('phrstep');
    const key = authenticator();
    await enrolPasskey(sso.t, user, key);
    const app = await enrolConfirmed(sso.t.prisma, KEY, user.user, 'Phone');
    const s = await passwordSignIn(sso.t, user);
    const step = (body: object) => caller(sso.t.app)(s, 'POST', '/rest/secure/token/second_factor', body);
    expect((await step({ code: await totpCode(app.secret) })).statusCode).toBe(200);

    const req = await authorizationRequest(config, 'openid', PHR);
    const first = await signInThroughPortal(browser, req.url, s);
    expect(first.answer).toEqual({ outcome: 'STEP_UP', level: ACR.phishingResistant });
    const up = await step({ assertion: key.assert(await stepOptions(sso.t, s)) });
    expect(up.statusCode, up.body).toBe(200);
    const { answer, callback } = await postPortalStep(browser, first.uid, s);
    expect(answer.outcome).toBe('CONTINUE');
    expect(await claimsOf(config, callback!, req)).toMatchObject({
      acr: ACR.phishingResistant,
      amr: ['pwd', 'otp', 'hwk', 'mfa'],
    });
  });

  it("refuses a person without a passkey with 'noPasskey'", async () => {
    const { config, user, browser, system } = await setUp('phrnone');
    const app = await enrolConfirmed(sso.t.prisma, KEY, user.user, 'Phone');
    const s = await passwordSignIn(sso.t, user);
    const taken = await caller(sso.t.app)(s, 'POST', '/rest/secure/token/second_factor', {
      code: await totpCode(app.secret),
    });
    expect(taken.statusCode).toBe(200);
    const claims = JSON.stringify({ id_token: { acr: { essential: true, values: [ACR.phishingResistant] } } });
    const req = await authorizationRequest(config, 'openid', { claims });
    const { answer, callback } = await signInThroughPortal(browser, req.url, s);
    expect(callback).toBeNull();
    expect(answer).toMatchObject({
      outcome: 'REFUSED',
      case: 'noPasskey',
      message: ssoRefusalText('noPasskey'),
      system: { id: system.systemId },
    });
  });
});

/**
 * Token introspection between systems (RFC 7662 §2.2): a study system may introspect only the tokens issued to
 * itself. openid-client is the relying party of two confidential systems A and B against the real provider;
 * each introspects its own access and refresh token (active, with its own `sub`, `client_id` and scope) and
 * the other's (`{"active": false}` and nothing more, as the revocation endpoint refuses a foreign token).
 */
import { describe, expect, it } from 'vitest';
import * as oidc from 'openid-client';
import {
  Browser,
  authorizationRequest,
  discover,
  person,
  registerSystem,
  signInThroughPortal,
  useSsoStack,
} from './support';

const sso = useSsoStack();

/** A system, its relying party's configuration, and tokens issued to it for a person holding it. */
async function systemWithTokens(tag: string) {
  const system = await registerSystem(sso.current.t);
  const config = await discover(sso.current.issuer, system.clientId, system.secret);
  const { user, session } = await person(sso.current.t, tag, system.systemId);
  const { url, verifier, state } = await authorizationRequest(config, 'openid email');
  const { callback } = await signInThroughPortal(new Browser(sso.current.base), url, session);
  const tokens = await oidc.authorizationCodeGrant(config, callback!, {
    pkceCodeVerifier: verifier,
    expectedState: state,
  });
  return { system, config, user, tokens };
}

describe('token introspection between systems', () => {
  it("answers a system about its own tokens and {active: false} about another system's, both ways", async () => {
    const a = await systemWithTokens('ssointa');
    const b = await systemWithTokens('ssointb');
    for (const [caller, owner] of [
      [a, b],
      [b, a],
    ] as const) {
      for (const [hint, token] of [
        ['access_token', owner.tokens.access_token],
        ['refresh_token', owner.tokens.refresh_token!],
      ] as const) {
        const label = `${caller.system.clientId} introspecting ${owner.system.clientId}'s ${hint}`;
        // The owner is told about its own token.
        const own = await oidc.tokenIntrospection(owner.config, token, { token_type_hint: hint });
        expect(own, label).toMatchObject({
          active: true,
          sub: owner.user.subjectId,
          client_id: owner.system.clientId,
        });
        expect(own.scope?.split(' '), label).toEqual(expect.arrayContaining(['openid', 'email']));
        // Another system learns nothing, with or without the hint.
        expect(await oidc.tokenIntrospection(caller.config, token, { token_type_hint: hint }), label).toEqual({
          active: false,
        });
        expect(await oidc.tokenIntrospection(caller.config, token), label).toEqual({ active: false });
      }
    }
  });
});

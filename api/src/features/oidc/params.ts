/**
 * The authorization request's parameters as the portal can keep them (RFC 6749 §4.1.1, Appendix A.5). The
 * provider stores a request's parameters with its interaction in a `jsonb` column until the sign-in finishes,
 * and PostgreSQL's text and `jsonb` refuse a NUL and a lone surrogate; `state` is further limited to the
 * visible ASCII the RFC allows (VSCHAR). A parameter outside that is the client's mistake, so it answers the
 * protocol's `invalid_request` at the registered redirect URI (the provider's error handler sends it there once
 * client and URI are known, else to the 'clicked link' page) instead of failing later as a storage error.
 */
import { z } from 'zod';
import type Provider from 'oidc-provider';
import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import { findUnrecognizedCharacter } from '@portal/contract';

/** Every parameter of an authorization request the provider keeps with the interaction. */
export const STORED_AUTHORIZATION_PARAMS = [
  'acr_values',
  'claims',
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

const storable = z.string().refine((v) => findUnrecognizedCharacter(v) === null, 'a character that cannot be stored');
/** RFC 6749 Appendix A.5: state = 1*VSCHAR, VSCHAR = %x20-7E. */
const vschar = z.string().regex(/^[\x20-\x7E]+$/, 'a character outside VSCHAR');

/**
 * `extraParams` validators for every stored parameter (the provider runs them after the client and the
 * redirect URI are checked, so an error goes back to the system). An invalid `state` is dropped before the
 * error, so the refused value is not echoed to the system.
 */
export function storedParamValidators(): Record<string, (ctx: KoaContextWithOIDC, value: string | undefined) => void> {
  return Object.fromEntries(
    STORED_AUTHORIZATION_PARAMS.map((name) => [
      name,
      (ctx: KoaContextWithOIDC, value: string | undefined) => {
        if (value === undefined) return;
        if ((name === 'state' ? vschar : storable).safeParse(value).success) return;
        if (name === 'state') ctx.oidc.params!.state = undefined;
        throw new errors.InvalidRequest(`${name} contains a character that is not allowed`);
      },
    ]),
  );
}

/** RP-initiated logout's parameters; the provider keeps them in its session until the person confirms. */
const LOGOUT_PARAMS = ['client_id', 'id_token_hint', 'logout_hint', 'post_logout_redirect_uri', 'state', 'ui_locales'];

/** A logout query as the portal can keep it (a repeated parameter is left to the provider, which refuses it). */
const LogoutQuerySchema = z.object(
  Object.fromEntries(
    LOGOUT_PARAMS.map((name) => [
      name,
      z.union([name === 'state' ? vschar : storable, z.array(z.string())]).optional(),
    ]),
  ),
);

/**
 * The provider's middleware refusing an RP-initiated logout (GET /session/end; the provider takes no form POST)
 * whose parameters cannot be stored: it would fail saving the session after answering, a 5xx. No system can be
 * trusted to hear the error (its post-logout URI is not yet checked), so the browser goes to `refusedUrl`.
 */
export function refuseUnstorableLogout(refusedUrl: string): Parameters<Provider['use']>[0] {
  return async (ctx, next) => {
    if (ctx.method === 'GET' && ctx.path === '/session/end' && !LogoutQuerySchema.safeParse(ctx.query).success) {
      ctx.status = 303;
      ctx.redirect(refusedUrl);
      return;
    }
    await next();
  };
}

/**
 * The network's OpenID Connect provider (issue 22): oidc-provider 9, configured for the study systems only.
 * Authorization code flow with PKCE (S256, required for public clients), `client_secret_basic` for confidential
 * ones (compared against the stored digest, never plaintext), refresh tokens rotated on every use, RP-initiated
 * logout, discovery, JWKS, introspection for confidential clients (of their own tokens only). No implicit,
 * hybrid or password grant; no HS-signed tokens. The login interaction is the portal's own sign-in
 * (interaction.ts); consent is implied for the network's own systems. Errors the provider cannot send back to a
 * system end on the portal's refusal page with the 000 §8 text of their case.
 */
import Provider, { type Configuration, type KoaContextWithOIDC, interactionPolicy } from 'oidc-provider';
import { ACR_LEVELS, type SsoRefusalCase } from '@portal/contract';
import { verifyClientSecret, writeLogoutNotices } from '@portal/db';
import type { Deps } from '../../deps';
import { findAccount } from './account';
import { demandOf, meets } from './levels';
import { prismaAdapter } from './adapter';
import { logoutSource, postLogoutSuccessSource } from './logout-pages';
import { deriveKey, loadSigningKeys } from './keys';
import { refuseUnstorableLogout, storedParamValidators } from './params';

/** Where the provider lives: OIDC_ISSUER, else PORTAL_URL + '/oidc'. */
export const issuerOf = (cfg: Deps['cfg']): string => cfg.OIDC_ISSUER ?? `${cfg.PORTAL_URL.replace(/\/$/, '')}/oidc`;

/** The portal's refusal page for `kase` (the browser ends there, not at the system). */
export const refusalPage = (kase: SsoRefusalCase, extra: Record<string, string> = {}): string =>
  `/app/sso/refused?${new URLSearchParams({ case: kase, ...extra }).toString()}`;

/** The refusal case of an error the provider renders instead of redirecting to a system. */
function refusalOf(error: { error?: string; error_description?: string }): SsoRefusalCase {
  const description = error.error_description ?? '';
  if (error.error === 'invalid_request' && /client_id/.test(description)) return 'undetermined';
  if (
    ['invalid_client', 'invalid_client_metadata', 'invalid_redirect_uri', 'unauthorized_client'].includes(
      error.error ?? '',
    )
  ) {
    return 'invalidLink';
  }
  if (error.error === 'invalid_request' && /redirect_uri/.test(description)) return 'invalidLink';
  // The portal failed (a store or the database), not the person's identity: logged where it is emitted.
  if (error.error === 'server_error') return 'error';
  return 'identity';
}

const systemOf = (ctx: KoaContextWithOIDC): number | null => {
  const client = ctx.oidc.client ?? ctx.oidc.entities.Client;
  const id = (client as unknown as { system_access_id?: unknown } | undefined)?.system_access_id;
  return typeof id === 'number' ? id : null;
};

/**
 * The default prompts plus two login checks. A provider session whose person may no longer enter the client's
 * system (deactivated, or the system's access removed: `findAccount` finds no account) asks again, so the
 * portal's step shows the refusal (000 §8) and `prompt=none` answers `login_required` to the system. And
 * (issue 37) a session below the level the request asks for in `acr_values` (or the client's default; the
 * provider's own checks only cover an essential `acr` claim) asks again, so the portal's step steps it up.
 */
function promptPolicy() {
  const policy = interactionPolicy.base();
  const { Check } = interactionPolicy;
  const login = policy.get('login')!;
  login.checks.add(
    new Check('no_access', 'The person may no longer enter this system', 'login_required', (ctx) =>
      ctx.oidc.session?.accountId && !ctx.oidc.account ? Check.REQUEST_PROMPT : Check.NO_NEED_TO_PROMPT,
    ),
  );
  login.checks.add(
    new Check('acr_level', 'The requested sign-in level was not reached', 'login_required', (ctx) => {
      if (!ctx.oidc.session?.accountId) return Check.NO_NEED_TO_PROMPT;
      const reached = ACR_LEVELS.find((l) => l === ctx.oidc.acr) ?? ACR_LEVELS[0];
      const demand = demandOf(ctx.oidc.params as Record<string, unknown>);
      return meets(reached, demand) ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT;
    }),
  );
  return policy;
}

/** @returns the provider, its keys loaded (the first one made if none exists). @throws when keys cannot be read. */
export async function buildProvider(deps: Deps, secret: string): Promise<Provider> {
  const { cfg, prisma } = deps;
  const cookieOptions = { httpOnly: true, sameSite: 'lax' as const, secure: cfg.COOKIE_SECURE };
  const configuration: Configuration = {
    adapter: prismaAdapter(prisma),
    clients: [],
    jwks: { keys: (await loadSigningKeys(prisma, secret)) as NonNullable<Configuration['jwks']>['keys'] },
    cookies: { keys: [deriveKey(secret, 'cookies').toString('base64url')], long: cookieOptions, short: cookieOptions },
    findAccount: (ctx, sub) => findAccount(prisma, sub, systemOf(ctx)),
    // Issue 37: the levels a system may ask for, lowest first; every ID token says which one the sign-in
    // reached, how (RFC 8176 amr) and when (auth_time), whatever the request asked.
    acrValues: [...ACR_LEVELS],
    claims: {
      openid: ['sub', 'acr', 'amr', 'auth_time'],
      profile: ['name', 'given_name', 'family_name'],
      email: ['email', 'email_verified'],
      study_access: ['study_access'],
      portal_roles: ['portal_roles'],
    },
    scopes: ['openid', 'offline_access', 'profile', 'email', 'study_access', 'portal_roles'],
    responseTypes: ['code'],
    pkce: { required: (_ctx, client) => client.clientAuthMethod === 'none' },
    clientAuthMethods: ['client_secret_basic', 'none'],
    enabledJWA: {
      idTokenSigningAlgValues: ['RS256'],
      userinfoSigningAlgValues: ['RS256'],
      introspectionSigningAlgValues: ['RS256'],
      authorizationSigningAlgValues: ['RS256'],
    },
    extraClientMetadata: { properties: ['system_access_id'] },
    extraParams: storedParamValidators(),
    // Logout tokens are sent (by the portal's notices, not by `features.backchannelLogout`, which would send a
    // second one) when access is revoked and when the person signs out; they carry no `sid`.
    discovery: {
      portal_project_id: cfg.SSO_PROJECT_ID,
      backchannel_logout_supported: true,
      backchannel_logout_session_supported: false,
    },
    features: {
      devInteractions: { enabled: false },
      // Issue 37: an essential `acr` claim is one of the ways a system asks for the multi-factor level.
      claimsParameter: { enabled: true },
      introspection: {
        enabled: true,
        // Only a confidential system, and only about its own tokens: another system's token answers
        // `{"active": false}` (RFC 7662 §2.2), as revocation refuses it, so no system learns who signed in
        // elsewhere or with what scope.
        allowedPolicy: async (_ctx, client, token) =>
          client.clientAuthMethod !== 'none' && token.clientId === client.clientId,
      },
      revocation: { enabled: true },
      rpInitiatedLogout: { enabled: true, logoutSource, postLogoutSuccessSource },
    },
    ttl: {
      AccessToken: cfg.OIDC_ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      IdToken: 3600,
      RefreshToken: 14 * 24 * 3600,
      Interaction: 3600,
      Session: 14 * 24 * 3600,
      Grant: 14 * 24 * 3600,
    },
    // Refresh tokens for every client allowed the grant, rotated on every use (a reused one revokes the grant).
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: () => true,
    interactions: { policy: promptPolicy(), url: (_ctx, interaction) => `/oidc/interaction/${interaction.uid}` },
    renderError: async (ctx, out) => {
      ctx.status = 303;
      ctx.redirect(refusalPage(refusalOf(out as { error?: string; error_description?: string })));
    },
  };
  const provider = new Provider(issuerOf(cfg), configuration);
  provider.proxy = cfg.TRUST_PROXY !== false;
  // The stored "secret" is its digest: compare the presented one against it.
  provider.Client.prototype.compareClientSecret = async function compare(this: { clientSecret: string }, actual) {
    return verifyClientSecret(this.clientSecret, actual);
  };
  provider.use(refuseUnstorableLogout(refusalPage('invalidLink')));
  tellSystemsOfLogout(provider, prisma);
  return provider;
}

/** Where the end-session step leaves who logged out of which systems, for the middleware after it. */
const LOGGED_OUT = Symbol('loggedOut');
type LoggedOut = { subjectId: string; clientIds: string[] };

/**
 * RP-initiated logout owes each system the person logged out of a logout token, as a revocation does: the
 * provider ends the session (and its grants) and reports success synchronously, and the notices are written
 * once its step has finished, before the browser is answered. A failure to write them is the provider's
 * `server_error` (logged with its cause); the person is signed out either way.
 */
function tellSystemsOfLogout(provider: Provider, prisma: Deps['prisma']): void {
  provider.on('end_session.success', (ctx: KoaContextWithOIDC) => {
    const session = ctx.oidc.session;
    if (!session?.accountId) return;
    // 'Sign out of everything' ends every system of the session; otherwise only the asking one.
    const clientIds = ctx.oidc.params?.logout
      ? Object.keys(session.authorizations ?? {})
      : [ctx.oidc.entities.Client?.clientId].filter((id): id is string => !!id);
    (ctx.state as Record<symbol, LoggedOut>)[LOGGED_OUT] = { subjectId: session.accountId, clientIds };
  });
  provider.use(async (ctx, next) => {
    await next();
    const out = (ctx.state as Record<symbol, LoggedOut | undefined>)[LOGGED_OUT];
    if (!out?.clientIds.length) return;
    try {
      await prisma.$transaction((tx) => writeLogoutNotices(tx, out.subjectId, out.clientIds));
    } catch (err) {
      provider.emit('server_error', ctx, err);
    }
  });
}

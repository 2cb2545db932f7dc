/**
 * The demo system as an OpenID Connect relying party of the portal, on `openid-client` 6: a confidential client
 * (`client_secret_basic`) using the authorization code flow with PKCE (S256), state and nonce; the ID token is
 * verified against the provider's JWKS by openid-client; userinfo gives the person's `study_access`. Discovery
 * is done on first use and kept (done again after a failure, e.g. while the API restarts). Plain http is
 * allowed only because the provider is the local stack's loopback portal.
 */
import * as oidc from 'openid-client';
import { DEMO_SCOPE, type DemoSystemConfig } from './config';
import type { PendingLogin, SignedIn, StudyAccess } from './sessions';

/** The provider refused the refresh or the token: the person may no longer use this system. */
export class AccessEndedError extends Error {
  override name = 'AccessEndedError';
}

const asStrings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);

/** The `study_access` claim as this system reads it (anything malformed is left out). */
export function studyAccessOf(claim: unknown): StudyAccess[] {
  if (!Array.isArray(claim)) return [];
  return claim.flatMap((block: Record<string, unknown>) =>
    block && typeof block.studyRole === 'string'
      ? [
          {
            studyRole: block.studyRole,
            aoCodes: asStrings(block.aoCodes),
            laoCodes: asStrings(block.laoCodes),
            studies: asStrings(block.studies),
          },
        ]
      : [],
  );
}

/** True for the provider's answers that mean "no more tokens for this person" (not an outage). */
const refused = (err: unknown): boolean =>
  (err instanceof oidc.ResponseBodyError && ['invalid_grant', 'invalid_token', 'access_denied'].includes(err.error)) ||
  (err instanceof oidc.WWWAuthenticateChallengeError && err.status === 401);

export class RelyingParty {
  private discovered?: Promise<oidc.Configuration>;

  constructor(private readonly cfg: DemoSystemConfig) {}

  get redirectUri(): string {
    return `${this.cfg.baseUrl}/callback`;
  }

  /** True when `iss` (from a third-party initiated login) is the provider this system trusts. */
  trusts(iss: string): boolean {
    return iss.replace(/\/+$/, '') === this.cfg.issuer;
  }

  /** The provider's configuration (discovery), cached. @throws when the provider cannot be reached. */
  configuration(): Promise<oidc.Configuration> {
    this.discovered ??= oidc
      .discovery(
        new URL(this.cfg.issuer),
        this.cfg.clientId,
        { client_secret: this.cfg.clientSecret },
        oidc.ClientSecretBasic(this.cfg.clientSecret),
        { execute: [oidc.allowInsecureRequests] },
      )
      .catch((err: unknown) => {
        this.discovered = undefined;
        throw err;
      });
    return this.discovered;
  }

  /**
   * Starts a sign-in; `acr` asks the portal for that sign-in level (issue 37: the multi-factor one).
   * @returns the provider's authorization URL and what the callback must check.
   */
  async startLogin(loginHint?: string, acr?: string): Promise<{ url: URL; pending: PendingLogin }> {
    const config = await this.configuration();
    const pending: PendingLogin = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier: oidc.randomPKCECodeVerifier(),
    };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri,
      scope: DEMO_SCOPE,
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
      ...(loginHint ? { login_hint: loginHint } : {}),
      ...(acr ? { acr_values: acr } : {}),
    });
    return { url, pending };
  }

  /**
   * Finishes a sign-in at the callback: exchanges the code (state, nonce and PKCE checked, the ID token
   * verified) and reads userinfo. @throws openid-client's errors for a bad or refused callback.
   */
  async finishLogin(callbackUrl: URL, pending: PendingLogin): Promise<SignedIn> {
    const config = await this.configuration();
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: pending.codeVerifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims()!;
    const signedIn = await this.signedIn(config, claims.sub, tokens);
    return {
      ...signedIn,
      ...(typeof claims.acr === 'string' ? { acr: claims.acr } : {}),
      ...(Array.isArray(claims.amr) ? { amr: claims.amr.map(String) } : {}),
    };
  }

  /**
   * Refreshes the tokens and reads userinfo again (the study access as it is now).
   * @throws AccessEndedError when the provider refuses (access removed, user deactivated, token revoked).
   */
  async refresh(user: SignedIn): Promise<SignedIn> {
    if (!user.refreshToken) throw new AccessEndedError('no refresh token');
    const config = await this.configuration();
    try {
      const tokens = await oidc.refreshTokenGrant(config, user.refreshToken);
      return await this.signedIn(config, user.sub, tokens, user);
    } catch (err) {
      if (refused(err)) throw new AccessEndedError((err as Error).message, { cause: err });
      throw err;
    }
  }

  /** The provider's RP-initiated logout URL, back to this system's home page afterwards. */
  async logoutUrl(idToken?: string): Promise<URL> {
    const config = await this.configuration();
    return oidc.buildEndSessionUrl(config, {
      post_logout_redirect_uri: `${this.cfg.baseUrl}/`,
      client_id: this.cfg.clientId,
      ...(idToken ? { id_token_hint: idToken } : {}),
    });
  }

  private async signedIn(
    config: oidc.Configuration,
    sub: string,
    tokens: oidc.TokenEndpointResponse,
    before?: SignedIn,
  ): Promise<SignedIn> {
    const info = await oidc.fetchUserInfo(config, tokens.access_token, sub);
    return {
      sub,
      name: typeof info.name === 'string' ? info.name : '',
      email: typeof info.email === 'string' ? info.email : '',
      studyAccess: studyAccessOf(info.study_access),
      ...(before?.acr ? { acr: before.acr } : {}),
      ...(before?.amr ? { amr: before.amr } : {}),
      idToken: tokens.id_token ?? before?.idToken,
      refreshToken: tokens.refresh_token ?? before?.refreshToken,
      accessToken: tokens.access_token,
    };
  }
}

import {
  CONSTANTS,
  expiryStateOf,
  type TokenCreateBody,
  type TokenCreateResponse,
  type TokenRefreshResponse,
} from '@portal/contract';
import { apiPost, request, setXsrfToken } from './apiClient';
import { updateAuthState } from './authState';
import { endSignOut } from './session';
import { type PasskeyOptions, signWithPasskey } from './webauthn';

/**
 * The session token calls (000 §4 Sign-in, Session timeout, Sign-out; §7 token/*), shared by sign-in, the
 * standalone Change Password screen (which signs in again after a forced change), sign-out and the
 * inactivity modal.
 */

/**
 * POST /rest/token/create. On success stores the XSRF token and the auth state (timeout, lastSeen,
 * passwordExpiryState, username) and returns the answer; a refusal rejects with the ApiError whose body
 * carries the failure flags (000 §8 Sign-in).
 */
export async function createSession(body: TokenCreateBody): Promise<TokenCreateResponse | undefined> {
  const { data } = await apiPost<TokenCreateResponse>('/rest/token/create', body);
  setXsrfToken(data?.xsrfToken);
  endSignOut();
  updateAuthState({
    tokenTimeoutInSeconds: data?.tokenTimeoutInSeconds ?? CONSTANTS.defaultTokenTimeoutSeconds,
    lastSeen: Date.now(),
    passwordExpiryState: expiryStateOf(data?.expiryState, data?.passwordExpiresSoon),
    username: body.username,
  });
  return data;
}

/**
 * A passkey as the whole sign-in (docs/decisions.md "Passkeys"): POST /rest/token/webauthn/options (a
 * challenge for any of this portal's discoverable passkeys), the browser's prompt, then POST
 * /rest/token/webauthn. On success stores the XSRF token and the auth state as `createSession` does (no
 * username: none was typed). A refusal rejects with the ApiError whose body carries 000 §3's flags, or
 * `usePasswordForm` with its text; a prompt the person cancels rejects with a PasskeyError.
 */
export async function createPasskeySession(): Promise<TokenCreateResponse | undefined> {
  const { data: answer } = await apiPost<{ options: PasskeyOptions }>('/rest/token/webauthn/options');
  const assertion = await signWithPasskey(answer!.options);
  const { data } = await apiPost<TokenCreateResponse>('/rest/token/webauthn', { assertion });
  setXsrfToken(data?.xsrfToken);
  endSignOut();
  updateAuthState({
    tokenTimeoutInSeconds: data?.tokenTimeoutInSeconds ?? CONSTANTS.defaultTokenTimeoutSeconds,
    lastSeen: Date.now(),
    passwordExpiryState: expiryStateOf(data?.expiryState, data?.passwordExpiresSoon),
    username: null,
  });
  return data;
}

/** POST /rest/secure/token/invalidate; a failure is ignored (the session ends in the browser either way). */
export async function invalidateSession(): Promise<void> {
  await request('POST', '/rest/secure/token/invalidate', { body: {}, ignoreUnauthorized: true }).catch(() => undefined);
}

/**
 * GET /rest/secure/token/refresh. `ignoreUnauthorized` keeps a 401 from signing the user out (the inactivity
 * modal decides itself); rejects with an ApiError.
 */
export async function refreshToken(ignoreUnauthorized = false): Promise<TokenRefreshResponse | undefined> {
  const { data } = await request<TokenRefreshResponse>('GET', '/rest/secure/token/refresh', { ignoreUnauthorized });
  return data;
}

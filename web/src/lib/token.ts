import {
  CONSTANTS,
  expiryStateOf,
  type TokenCreateBody,
  type TokenCreateResponse,
  type TokenRefreshResponse,
} from '@portal/contract';
import { apiPost, request, setXsrfToken } from './apiClient';
import { updateAuthState } from './authState';
import { afterSignOut, endSignOut } from './session';

/**
 * The session token calls (000 §4 Sign-in, Session timeout, Sign-out; §7 token/*), shared by sign-in, the
 * standalone Change Password screen (which signs in again after a forced change), sign-out and the
 * inactivity modal.
 */

/**
 * POST /rest/token/create. On success stores the XSRF token and the auth state (timeout, lastSeen,
 * passwordExpiryState, username) and returns the answer; a refusal rejects with the ApiError whose body
 * carries the failure flags (000 §8 Sign-in). Waits first for a sign-out under way to settle.
 */
export async function createSession(body: TokenCreateBody): Promise<TokenCreateResponse | undefined> {
  await afterSignOut();
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

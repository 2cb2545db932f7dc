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
import { type PasskeyOptions, signWithPasskey } from './webauthn';

/**
 * The session token calls (000 §4 Sign-in, Session timeout, Sign-out; §7 token/*), shared by sign-in, the
 * standalone Change Password screen (which signs in again after a forced change), sign-out and the
 * inactivity modal.
 */

/** A new session's XSRF token and auth state (timeout, lastSeen, passwordExpiryState, who signed in). */
function storeSession(data: TokenCreateResponse | undefined, username: string | null): void {
  setXsrfToken(data?.xsrfToken);
  endSignOut();
  updateAuthState({
    tokenTimeoutInSeconds: data?.tokenTimeoutInSeconds ?? CONSTANTS.defaultTokenTimeoutSeconds,
    lastSeen: Date.now(),
    passwordExpiryState: expiryStateOf(data?.expiryState, data?.passwordExpiresSoon),
    username,
  });
}

/**
 * POST /rest/token/create. On success stores the XSRF token and the auth state (timeout, lastSeen,
 * passwordExpiryState, username) and returns the answer; a refusal rejects with the ApiError whose body
 * carries the failure flags (000 §8 Sign-in). Waits first for a sign-out under way to settle.
 */
export async function createSession(body: TokenCreateBody): Promise<TokenCreateResponse | undefined> {
  await afterSignOut();
  const { data } = await apiPost<TokenCreateResponse>('/rest/token/create', body);
  storeSession(data, body.username);
  return data;
}

/**
 * A passkey as the whole sign-in (docs/decisions.md "Passkeys"): POST /rest/token/webauthn/options (a
 * challenge for any of this portal's discoverable passkeys), the browser's prompt, then POST
 * /rest/token/webauthn. Waits for a sign-out under way, then on success stores the XSRF token and the auth
 * state as `createSession` does (no username: none was typed). A refusal rejects with the ApiError whose body carries 000 §3's flags, or
 * `usePasswordForm` with its text; a prompt the person cancels rejects with a PasskeyError.
 */
export async function createPasskeySession(): Promise<TokenCreateResponse | undefined> {
  await afterSignOut();
  const { data: answer } = await apiPost<{ options: PasskeyOptions }>('/rest/token/webauthn/options');
  const assertion = await signWithPasskey(answer!.options);
  const { data } = await apiPost<TokenCreateResponse>('/rest/token/webauthn', { assertion });
  storeSession(data, null);
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

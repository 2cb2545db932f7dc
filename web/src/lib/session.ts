import type { QueryClient } from '@tanstack/react-query';
import { setXsrfToken } from './apiClient';
import { paths } from './paths';
import { clearAuthState } from './authState';
import { forgetSessionSignature } from './signature';

/**
 * The sign-in URL a sign-out under way is going to (000 §4 Sign-out), from the moment it starts until the
 * sign-in page shows. Clearing the session re-renders the secure layout before the router's (transition)
 * navigation commits; without this the layout, finding no token, would send the user to 'Please sign in'
 * instead of, say, 'You have been signed out due to inactivity'. The layout and the 401 handler follow it.
 */
let signOutTarget: string | null = null;

/** Records where the sign-out now starting goes. */
export function beginSignOut(target: string): void {
  signOutTarget = target;
}

let signOutSettled: Promise<void> = Promise.resolve();

/**
 * Records the end of a sign-out under way (its invalidate call and the clearing of the client's session):
 * a new sign-in waits for it (`afterSignOut`), so the old session's late answer neither clears the new one's
 * XSRF token and auth state nor, in the browser, its cookie (000 §4 Sign-out, Sign-in).
 */
export function trackSignOut(settled: Promise<void>): void {
  signOutSettled = settled;
}

/** Resolves once the last sign-out started has settled (at once when none is under way). */
export function afterSignOut(): Promise<void> {
  return signOutSettled;
}

/** Where a sign-out under way goes, or null when none is. */
export function pendingSignOut(): string | null {
  return signOutTarget;
}

/** The sign-in page is showing (or a new session starts): no sign-out is under way any more. */
export function endSignOut(): void {
  signOutTarget = null;
}

/**
 * Client side of a session ending (000 §4 Sign-out): the XSRF token, the auth state, the session's signing
 * flag (the next signature asks for the username) and every cached query go.
 */
export function clearSession(queryClient: QueryClient): void {
  setXsrfToken(undefined);
  clearAuthState();
  forgetSessionSignature();
  queryClient.clear();
}

/**
 * Where sign-out lands (000 §4 Sign-out): '/' with the message; the current path and params are kept as
 * redirectPath / redirectParams only when the current URL has redirect=true and lies under /app/.
 */
export function signInUrl(message: string | undefined, current: { pathname: string; search: string }): string {
  const params = new URLSearchParams();
  if (message) params.set('message', message);
  const currentParams = new URLSearchParams(current.search);
  if (currentParams.get('redirect') === 'true' && current.pathname.startsWith(`${paths.app.root.path}/`)) {
    currentParams.delete('redirect');
    params.set('redirectPath', current.pathname);
    const rest = currentParams.toString();
    if (rest) params.set('redirectParams', rest);
  }
  const qs = params.toString();
  return qs ? `${paths.signIn.href}?${qs}` : paths.signIn.href;
}

/**
 * The sign-in page with `message`, going on to `appPath` (a path under /app/, e.g. the single sign-on step)
 * once signed in, as a sign-out with redirect=true would (afterSignInPath follows only /app/ paths).
 */
export function signInReturningTo(appPath: string, message?: string): string {
  const [pathname = '', search = ''] = appPath.split('?', 2);
  const params = new URLSearchParams(search);
  params.set('redirect', 'true');
  return signInUrl(message, { pathname, search: `?${params.toString()}` });
}

/**
 * After sign-in: redirectPath (+ redirectParams) when it is a path inside the app, else the dashboard (000 §4
 * Sign-in) with skipRefresh (the session is brand new) and, when `keepAlert`, keepAlert (the success message
 * of a password change stays shown there).
 */
export function afterSignInPath(search: URLSearchParams, { keepAlert = false } = {}): string {
  const path = search.get('redirectPath');
  if (!path || !path.startsWith(`${paths.app.root.path}/`) || path.startsWith(paths.app.signOut.path)) {
    return paths.app.dashboard.afterSignIn(keepAlert);
  }
  const params = search.get('redirectParams');
  return params ? `${path}?${params.replace(/^\?/, '')}` : path;
}

/**
 * Where sign-in continues when the password expires soon (000 §4 Sign-in): /change-password with the
 * username, skipRefresh (the session is brand new) and the redirect target to go on to afterwards.
 */
export function changePasswordPath(username: string, search: URLSearchParams): string {
  const params = new URLSearchParams({ username, skipRefresh: 'true' });
  for (const key of ['redirectPath', 'redirectParams']) {
    const value = search.get(key);
    if (value) params.set(key, value);
  }
  return paths.changePassword.href(params);
}

import type { QueryClient } from '@tanstack/react-query';
import { setXsrfToken } from './apiClient';
import { paths } from './paths';
import { clearAuthState } from './authState';

/** Client side of a session ending (000 §4 Sign-out): the XSRF token, the auth state and every cached query go. */
export function clearSession(queryClient: QueryClient): void {
  setXsrfToken(undefined);
  clearAuthState();
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

/** After sign-in: redirectPath (+ redirectParams) when it is a path inside the app, else the dashboard (000 §4 Sign-in). */
export function afterSignInPath(search: URLSearchParams): string {
  const path = search.get('redirectPath');
  if (!path || !path.startsWith(`${paths.app.root.path}/`) || path.startsWith(paths.app.signOut.path)) {
    return paths.app.dashboard.href;
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

import { notifications } from '@mantine/notifications';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { updateAuthState } from '../lib/authState';
import { refreshToken } from '../lib/token';

/**
 * The dashboard's query parameters (000 §2 Routes: "/app/dashboard ... Query skipRefresh, keepAlert"; what
 * they do is not worded, decided in docs/decisions.md), handled once on arrival and then removed from the
 * address, so a reload or a bookmark does not repeat them:
 * - skipRefresh=true: the session was made a moment ago (sign-in, a password change): no token refresh.
 *   Without it the dashboard refreshes the token once (as the standalone Change Password screen does), so
 *   the countdown starts from the server's timeout (a 401 signs out with 'Please sign in').
 * - keepAlert=true: the notification that led here stays shown (the password-change success). Without it
 *   notifications left by the previous screen are cleared: the dashboard starts clean.
 */
export function useDashboardArrival(): void {
  const [search, setSearch] = useSearchParams();
  const handled = useRef(false);
  useEffect(() => {
    if (handled.current) return;
    handled.current = true;
    if (search.get('keepAlert') !== 'true') notifications.clean();
    if (search.get('skipRefresh') !== 'true') {
      void refreshToken()
        .then((r) => r && updateAuthState({ tokenTimeoutInSeconds: r.tokenTimeoutInSeconds }))
        .catch(() => undefined);
    }
    if (search.has('keepAlert') || search.has('skipRefresh')) {
      const next = new URLSearchParams(search);
      next.delete('keepAlert');
      next.delete('skipRefresh');
      setSearch(next, { replace: true });
    }
  }, [search, setSearch]);
}

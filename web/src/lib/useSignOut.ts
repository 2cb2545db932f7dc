import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { beginSignOut, clearSession, signInUrl, trackSignOut } from './session';
import { invalidateSession } from './token';

/**
 * Sign-out (000 §4 Sign-out): calls the invalidate endpoint, resets the auth state and goes to / with the
 * message and, when the current URL has redirect=true under /app/, redirectPath and redirectParams. It
 * leaves the secure pages first, so none of them reacts to the ended session with 'Please sign in'. A
 * second call while one runs does nothing. The target is recorded (`beginSignOut`) so that the secure
 * layout and the 401 handler, reacting to the cleared session, go to the same place. A sign-in started on
 * the sign-in page before the invalidate call answers waits for it (`trackSignOut`, `afterSignOut`).
 */
export function useSignOut(): (message?: string) => Promise<void> {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const running = useRef(false);
  return useCallback(
    async (message?: string) => {
      if (running.current) return;
      running.current = true;
      const target = signInUrl(message, location);
      beginSignOut(target);
      // Tracked before the sign-in page shows: a sign-in there waits for this to settle.
      let settle: () => void = () => {};
      trackSignOut(new Promise<void>((resolve) => (settle = resolve)));
      try {
        await navigate(target, { replace: true });
        await invalidateSession();
        clearSession(queryClient);
      } finally {
        settle();
        running.current = false;
      }
    },
    [location, navigate, queryClient],
  );
}

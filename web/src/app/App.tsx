import { MantineProvider } from '@mantine/core';
import { MESSAGES } from '@portal/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { RouterProvider } from 'react-router-dom';
import { ApiError, setUnauthorizedHandler } from '../lib/apiClient';
import { beginSignOut, clearSession, pendingSignOut, signInUrl } from '../lib/session';
import { paths } from '../lib/paths';
import { router } from './router';
import { cssVariablesResolver } from '../shared/theme/palette';
import { theme } from '../shared/theme/theme';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A 4xx will not get better by asking again.
      retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

// 000 §4 Secure page: a 401 on a secure call signs the user out with 'Please sign in'.
let signingOut = false;
// A sign-out already under way (inactivity, the user's own) keeps its message: a call it cut short answers 401.
setUnauthorizedHandler(() => {
  if (signingOut || pendingSignOut()) return;
  const { pathname, search } = router.state.location;
  // Already on a public page (the sign-in page after an inactivity sign-out): the session is gone, stay.
  if (!pathname.startsWith(`${paths.app.root.path}/`)) return clearSession(queryClient);
  signingOut = true;
  const target = signInUrl(MESSAGES.signIn.pleaseSignIn, { pathname, search });
  beginSignOut(target);
  clearSession(queryClient);
  void router.navigate(target, { replace: true }).finally(() => {
    signingOut = false;
  });
});

const AppNotifications = lazy(async () => ({ default: (await import('./AppNotifications')).AppNotifications }));

/** The app: theme, query cache, notifications (loaded on their own) and the routes. */
export function App() {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <QueryClientProvider client={queryClient}>
        <Suspense fallback={null}>
          <AppNotifications />
        </Suspense>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}

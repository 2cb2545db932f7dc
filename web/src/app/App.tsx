import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { MESSAGES } from '@portal/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router-dom';
import { ApiError, setUnauthorizedHandler } from '../lib/apiClient';
import { clearSession, signInUrl } from '../lib/session';
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
setUnauthorizedHandler(() => {
  if (signingOut) return;
  signingOut = true;
  const { pathname, search } = router.state.location;
  clearSession(queryClient);
  void router.navigate(signInUrl(MESSAGES.signIn.pleaseSignIn, { pathname, search }), { replace: true }).finally(() => {
    signingOut = false;
  });
});

export function App() {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <QueryClientProvider client={queryClient}>
        <ModalsProvider labels={{ confirm: 'OK', cancel: 'Cancel' }}>
          <Notifications position="top-right" autoClose={7500} />
          <RouterProvider router={router} />
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}

import { createTheme, MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { MESSAGES } from '@portal/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router-dom';
import { ApiError, setUnauthorizedHandler } from '../lib/apiClient';
import { clearSession, signInUrl } from '../lib/session';
import { router } from './router';

const theme = createTheme({
  primaryColor: 'blue',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  defaultRadius: 'sm',
  focusRing: 'auto',
  // 000 §2 Form note 'All fields are required unless indicated.': optional fields say so in their label;
  // required ones keep the required attribute without a visual asterisk (which would also enter their names).
  components: Object.fromEntries(
    ['TextInput', 'PasswordInput', 'Textarea', 'Select', 'MultiSelect', 'CheckboxGroup'].map((name) => [
      name,
      { defaultProps: { withAsterisk: false } },
    ]),
  ),
});

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
    <MantineProvider theme={theme} defaultColorScheme="light">
      <QueryClientProvider client={queryClient}>
        <ModalsProvider labels={{ confirm: 'OK', cancel: 'Cancel' }}>
          <Notifications position="top-right" autoClose={7500} />
          <RouterProvider router={router} />
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}

import { Alert, Paper, SimpleGrid, Stack, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { AUTH_CONSTANTS, AUTH_MESSAGES, MESSAGES } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { getXsrfToken } from '../lib/apiClient';
import { updateAuthState, useAuthState } from '../lib/authState';
import { afterSignInPath, signInUrl } from '../lib/session';
import { sleep } from '../lib/sleep';
import { createSession, invalidateSession, refreshToken } from '../lib/token';
import { InactivityModal } from '../shared/InactivityModal';
import { usePageTitle } from '../shared/usePageTitle';
import { ChangePasswordForm } from './ChangePasswordForm';
import { PasswordRequirements } from './PasswordRequirements';

/**
 * /change-password, the standalone Change Password screen reached after sign-in when the password expires
 * soon (000 §2 Routes and Change Password screen, §4 Password expiry and After a password change). Query
 * username and skipRefresh; the expiry banner of the state; 'Change Later' only in the warn state. After a
 * change it shows 'Your password was successfully updated.' (500 ms), then signs in again with the new
 * password when the change was forced, otherwise goes on to the dashboard (or the redirect path).
 */
export function ChangePasswordPage() {
  usePageTitle('Change Password');
  const [search] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const auth = useAuthState();
  const [done, setDone] = useState(false);
  const signedIn = !!getXsrfToken();
  const username = search.get('username') ?? auth?.username ?? '';
  const state = auth?.passwordExpiryState ?? null;

  useEffect(() => {
    if (!signedIn || search.get('skipRefresh') === 'true') return;
    void refreshToken()
      .then((r) => r && updateAuthState({ tokenTimeoutInSeconds: r.tokenTimeoutInSeconds }))
      .catch(() => undefined);
  }, [signedIn, search]);

  if (!signedIn) return <Navigate to={signInUrl(MESSAGES.signIn.pleaseSignIn, location)} replace />;

  // After a change the success notification stays on the dashboard (keepAlert, 000 §2 Routes).
  const goOn = (keepAlert = false) => void navigate(afterSignInPath(search, { keepAlert }), { replace: true });

  const signInAgain = async (password: string): Promise<boolean> => {
    await invalidateSession();
    try {
      await createSession({ username, password });
      queryClient.clear();
      return true;
    } catch {
      return false;
    }
  };

  const onChanged = async (password: string) => {
    await sleep(AUTH_CONSTANTS.successAlertDelayMs);
    setDone(true);
    notifications.show({ color: 'green', title: 'Success', message: AUTH_MESSAGES.changedStandalone });
    const forced = state === 'FORCE_CHANGE';
    updateAuthState({ passwordExpiryState: null });
    if (forced && !(await signInAgain(password))) {
      void navigate(signInUrl(MESSAGES.signIn.pleaseSignIn, location), { replace: true });
      return;
    }
    goOn(true);
  };

  const changeLater = () => {
    updateAuthState({ passwordExpiryState: null });
    goOn();
  };

  return (
    <Paper withBorder shadow="sm" p="xl" radius="md">
      <InactivityModal />
      <Stack gap="md">
        <Title order={1}>Change Password</Title>
        {state === 'FORCE_CHANGE' && !done && (
          <Alert color="red" role="alert" data-testid="expiry-banner">
            {AUTH_MESSAGES.expiredBanner}
          </Alert>
        )}
        {state === 'WARN_CHANGE' && !done && (
          <Alert color="yellow" role="status" data-testid="expiry-banner">
            {AUTH_MESSAGES.warnBanner}
          </Alert>
        )}
        {done && (
          <Alert color="green" role="status">
            {AUTH_MESSAGES.changedStandalone}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          <ChangePasswordForm
            onChanged={onChanged}
            onChangeLater={state === 'WARN_CHANGE' ? changeLater : undefined}
            disabled={done}
          />
          <PasswordRequirements />
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}

import { Alert, Anchor, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { ApiError } from '../../lib/apiClient';
import { paths } from '../../lib/paths';
import { signInReturningTo } from '../../lib/session';
import { useConfirmLink } from './api';
import { errorText } from './errorText';
import { RecoveryCodesList } from './RecoveryCodesList';
import { usePageTitle } from '../../shared/usePageTitle';

/**
 * '/app/confirm-sign-in-method/:token' (issue 37; docs/decisions.md "Second factors"): the link emailed to a
 * person who added their first authenticator app. The person confirms with a button (a mail scanner that
 * opens links confirms nothing); the app then signs them in, and their recovery codes are shown once. Signed
 * out, the page sends them to sign in and back here.
 */
export function ConfirmSignInMethodPage() {
  usePageTitle('Confirm Your Sign-In Method');
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const confirm = useConfirmLink();
  const signedOut = confirm.error instanceof ApiError && confirm.error.status === 401;

  useEffect(() => {
    if (signedOut) void navigate(signInReturningTo(paths.app.signInMethod.confirm.href(token)), { replace: true });
  }, [signedOut, navigate, token]);

  return (
    <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={520} mx="auto">
      <Stack gap="md">
        <Title order={1}>Confirm Your Sign-In Method</Title>
        {confirm.data ? (
          <>
            <Alert color="green" title="Your authenticator app is in use" role="status">
              From now on you sign in with your password and a code from the app.
            </Alert>
            <RecoveryCodesList codes={confirm.data.recoveryCodes} />
            <Anchor component={Link} to={paths.app.dashboard.href} onClick={() => void queryClient.invalidateQueries()}>
              I saved my recovery codes: continue to the portal
            </Anchor>
          </>
        ) : (
          <>
            <Text size="sm">
              Confirm the authenticator app you added to your account. If you did not add one, do not confirm, and
              change your password.
            </Text>
            {confirm.error && !signedOut && (
              <Alert color="red" role="alert">
                {errorText(confirm.error)}
              </Alert>
            )}
            <Button onClick={() => confirm.mutate(token)} loading={confirm.isPending}>
              Confirm
            </Button>
          </>
        )}
      </Stack>
    </Paper>
  );
}

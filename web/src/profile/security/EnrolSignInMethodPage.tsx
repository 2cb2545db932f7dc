import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../lib/paths';
import { invalidateSession } from '../../lib/token';
import { AddAuthenticatorApp } from './AddAuthenticatorApp';
import { usePageTitle } from '../../shared/usePageTitle';

/**
 * '/app/sign-in-method' (issue 37; docs/decisions.md "Second factors"): a person whose portal roles require a
 * second sign-in step and who has none signs in to a session that may only add one. The first app is confirmed
 * by the link emailed to them (ConfirmSignInMethodPage), which opens the portal.
 */
export function EnrolSignInMethodPage() {
  usePageTitle('Set Up a Second Sign-In Step');
  const navigate = useNavigate();
  const [done, setDone] = useState(false);
  const signOut = async () => {
    await invalidateSession();
    void navigate(paths.signIn.href, { replace: true });
  };
  return (
    <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={520} mx="auto">
      <Stack gap="md">
        <Title order={1}>Set Up a Second Sign-In Step</Title>
        <Text size="sm">
          Your portal roles reach other people&apos;s data, so your account needs a second sign-in step: a code from an
          authenticator app on your phone or computer, after your password.
        </Text>
        {done ? (
          <Alert color="blue" title="Follow the emailed link to finish" role="status">
            Open the link we emailed you in this browser. It confirms the app and opens the portal.
          </Alert>
        ) : (
          <AddAuthenticatorApp onDone={() => setDone(true)} />
        )}
        <Group>
          <Button variant="default" onClick={() => void signOut()}>
            Sign Out
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

import { Alert, Grid, Stack, Title } from '@mantine/core';
import { AUTH_MESSAGES, MESSAGES } from '@portal/contract';
import { useState } from 'react';
import { updateAuthState } from '../lib/authState';
import { paths } from '../lib/paths';
import { useCanChangePassword } from '../lib/sessionQueries';
import { LoadError } from '../shared/ErrorAlert';
import { PageLoader } from '../shared/PageLoader';
import { StatusPage } from '../shared/StatusPage';
import { usePageTitle } from '../shared/usePageTitle';
import { ChangePasswordForm } from './ChangePasswordForm';
import { restrictionText } from './changeRestriction';
import { PasswordRequirements } from './PasswordRequirements';
import { usePasswordChangeRestriction } from './api/getPasswordChangeRestriction';
import { usePasswordRules } from './api/getPasswordRules';

/**
 * /app/change-password inside the secure area (000 §2 Routes, §4 After a password change, non-standalone
 * mode: 'Password successfully changed.'). Only for users whose password the portal manages ('ever');
 * while the password-change time restriction stands ('now' false) the form is disabled under the minimum-age
 * rule and the time from which a change is possible, as the API answers it.
 */
export function AppChangePasswordPage() {
  usePageTitle('Change Password');
  const ever = useCanChangePassword('ever');
  const now = usePasswordChangeRestriction(ever.data === true);
  const rules = usePasswordRules();
  const [changed, setChanged] = useState(false);
  // Inside the minimum-age restriction the form is disabled, saying when a change becomes possible.
  const restricted = now.data?.canChangeNow === false;

  if (ever.isPending) return <PageLoader />;
  if (ever.error) return <LoadError text={ever.error.message} onRetry={() => void ever.refetch()} />;
  if (ever.data !== true) {
    return (
      <StatusPage
        title="Not Authorized"
        text={MESSAGES.signIn.notAuthorized}
        onward={{ label: 'Go to the dashboard', to: paths.app.dashboard.href }}
      />
    );
  }

  return (
    <Stack gap="md">
      <Title order={1}>Change Password</Title>
      {changed && (
        <Alert color="green" role="status" withCloseButton onClose={() => setChanged(false)}>
          {AUTH_MESSAGES.changedInApp}
        </Alert>
      )}
      {restricted && (
        <Alert color="yellow" role="status" title={rules.data?.minAge?.text ?? 'Password recently changed'}>
          {restrictionText(now.data?.changeAllowedFrom)}
        </Alert>
      )}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <ChangePasswordForm
            disabled={restricted}
            onChanged={async () => {
              updateAuthState({ passwordExpiryState: null });
              setChanged(true);
              await now.refetch();
            }}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <PasswordRequirements />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

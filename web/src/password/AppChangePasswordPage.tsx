import { Alert, Grid, Stack, Title } from '@mantine/core';
import { AUTH_MESSAGES, MESSAGES } from '@portal/contract';
import { useState } from 'react';
import { updateAuthState } from '../lib/authState';
import { useCanChangePassword } from '../lib/sessionQueries';
import { PageLoader } from '../shared/PageLoader';
import { usePageTitle } from '../shared/usePageTitle';
import { ChangePasswordForm } from './ChangePasswordForm';
import { PasswordRequirements } from './PasswordRequirements';
import { usePasswordRules } from './api/getPasswordRules';

/**
 * /app/change-password inside the secure area (000 §2 Routes, §4 After a password change, non-standalone
 * mode: 'Password successfully changed.'). Only for users whose password the portal manages ('ever');
 * while the password-change time restriction stands ('now' false) the minimum-age rule is shown.
 */
export function AppChangePasswordPage() {
  usePageTitle('Change Password');
  const ever = useCanChangePassword('ever');
  const now = useCanChangePassword('now', ever.data === true);
  const rules = usePasswordRules();
  const [changed, setChanged] = useState(false);

  if (ever.isPending) return <PageLoader />;
  if (ever.data !== true) {
    return (
      <Alert color="red" title="Access denied" role="alert">
        {ever.error ? ever.error.message : MESSAGES.signIn.notAuthorized}
      </Alert>
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
      {now.data === false && rules.data?.minAge && (
        <Alert color="yellow" role="status">
          {rules.data.minAge.text}
        </Alert>
      )}
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <ChangePasswordForm
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

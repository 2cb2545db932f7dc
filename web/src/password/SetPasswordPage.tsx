import { Alert, Anchor, Button, Center, Loader, Paper, SimpleGrid, Stack, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { AUTH_MESSAGES, translateFieldErrors } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { ApiError } from '../lib/apiClient';
import { paths } from '../lib/paths';
import { usePageTitle } from '../shared/usePageTitle';
import { passwordLinkQueryOptions, useSetPassword, type SetPasswordMode } from './api/setPassword';
import { passwordFailureText } from './failure';
import { PasswordRequirements } from './PasswordRequirements';
import { NEW_PASSWORD_LABELS, NewPasswordFields, passwordsMismatch } from './NewPasswordFields';
import { focusFirstInvalid } from '../shared/invalidFields';

const LABELS = NEW_PASSWORD_LABELS;

/**
 * The Set Password screen reached through an emailed link (000 §2 Set Password screen, §5 Reset, §7
 * GET/POST /rest/public/{mode}, §8 Passwords). Routes (not shown in the spec): /set-initial-password/{hash}
 * and /reset-password/{hash}. After 500 ms it shows the form, or the invalid-hash message; the button reads
 * 'Set Password' for the initial set, otherwise 'Change Password'.
 */
export function SetPasswordPage({ mode }: { mode: SetPasswordMode }) {
  usePageTitle('Set Password');
  const { hash = '' } = useParams();
  const [done, setDone] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const valid = useQuery(passwordLinkQueryOptions(mode, hash));

  const form = useForm({
    initialValues: { password: '', again: '' },
    validate: {
      password: (v) => (v ? null : translateFieldErrors(LABELS.password, ['required'])),
      again: (v) => (v ? null : translateFieldErrors(LABELS.again, ['required'])),
    },
  });
  const mismatch = passwordsMismatch(form.values.password, form.values.again);

  const save = useSetPassword({
    mutationConfig: {
      onMutate: () => setFailure(null),
      onSuccess: () => setDone(true),
      onError: (error) => {
        setFailure(passwordFailureText(error, AUTH_MESSAGES.resetFailed, AUTH_MESSAGES.resetFailed));
        const reasons = error instanceof ApiError ? error.fieldErrors.password : undefined;
        if (reasons?.length) form.setErrors({ password: translateFieldErrors(LABELS.password, reasons, false, ', ') });
      },
    },
  });

  let body;
  if (valid.isPending) {
    body = (
      <Center py="lg" role="status" aria-label="Checking the link">
        <Loader />
      </Center>
    );
  } else if (done) {
    body = (
      <Alert color="green" role="status">
        {AUTH_MESSAGES.changedStandalone}{' '}
        <Anchor component={Link} to={paths.signIn.href}>
          Sign In
        </Anchor>
      </Alert>
    );
  } else if (!valid.data) {
    body = (
      <Alert color="red" role="alert" data-testid="invalid-hash">
        {AUTH_MESSAGES.invalidHash}
      </Alert>
    );
  } else {
    body = (
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <form
          noValidate
          aria-label="Set Password"
          onSubmit={form.onSubmit(
            (v) => {
              if (!mismatch) save.mutate({ mode, hash, password: v.password });
            },
            (_errors, _values, event) => focusFirstInvalid(event),
          )}
        >
          <Stack gap="md">
            {failure && (
              <Alert color="red" title="Error" role="alert">
                {failure}
              </Alert>
            )}
            <NewPasswordFields
              password={form.getInputProps('password')}
              again={form.getInputProps('again')}
              mismatch={mismatch}
            />
            <Button type="submit" loading={save.isPending} disabled={mismatch}>
              {mode === 'set_initial_password' ? 'Set Password' : 'Change Password'}
            </Button>
          </Stack>
        </form>
        <PasswordRequirements />
      </SimpleGrid>
    );
  }

  return (
    <Paper withBorder shadow="sm" p="xl" radius="md">
      <Stack gap="md">
        <Title order={1}>Set Password</Title>
        {body}
      </Stack>
    </Paper>
  );
}

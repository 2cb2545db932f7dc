import { Alert, Anchor, Button, Paper, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { AUTH_MESSAGES, type ForgotPasswordBody, translateFieldErrors } from '@portal/contract';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ApiError } from '../lib/apiClient';
import { paths } from '../lib/paths';
import { usePageTitle } from '../shared/usePageTitle';
import { useForgotPassword } from './api/forgotPassword';
import { focusFirstInvalid } from '../shared/invalidFields';

const LABEL = 'Email Address';

/**
 * /forgot-password (000 §2 Forgot Password screen, §7 forgot_password sent after a 500 ms delay, §8 Forgot
 * password texts). The answer is the same whether or not the address has an account.
 */
export function ForgotPasswordPage() {
  usePageTitle('Forgot Password');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<ForgotPasswordBody>({
    initialValues: { emailAddress: '' },
    validate: { emailAddress: (v) => (v.trim() ? null : translateFieldErrors(LABEL, ['required'])) },
  });

  const send = useForgotPassword({
    mutationConfig: {
      onMutate: () => {
        setFailure(null);
        setSentTo(null);
      },
      onSuccess: (email) => setSentTo(email),
      onError: (error) => {
        if (error instanceof ApiError && error.status === 422 && error.fieldErrors.emailAddress?.length) {
          form.setErrors({ emailAddress: translateFieldErrors(LABEL, error.fieldErrors.emailAddress) });
          return;
        }
        setFailure(error instanceof ApiError && error.status === 429 ? error.message : AUTH_MESSAGES.forgotFailed);
      },
    },
  });

  return (
    <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={460} mx="auto">
      <form
        noValidate
        aria-labelledby="forgot-title"
        onSubmit={form.onSubmit(
          (v) => send.mutate({ emailAddress: v.emailAddress.trim() }),
          (_errors, _values, event) => focusFirstInvalid(event),
        )}
      >
        <Stack gap="md">
          <Title order={1} id="forgot-title">
            Forgot Password
          </Title>
          {sentTo && (
            <Alert color="green" role="status" data-testid="forgot-sent">
              {AUTH_MESSAGES.forgotSent(sentTo)}
            </Alert>
          )}
          {failure && (
            <Alert color="red" title="Error" role="alert">
              {failure}
            </Alert>
          )}
          <TextInput
            label={LABEL}
            type="email"
            autoComplete="email"
            required
            autoFocus
            {...form.getInputProps('emailAddress')}
          />
          <Button type="submit" loading={send.isPending} fullWidth>
            Send Reset Email
          </Button>
          <Anchor component={Link} to={paths.signIn.href} size="sm" ta="center">
            Remember your password? Sign In
          </Anchor>
        </Stack>
      </form>
    </Paper>
  );
}

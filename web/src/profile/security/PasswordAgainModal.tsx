import { Alert, Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { type FormEvent, type ReactNode, useState } from 'react';
import { errorText, fieldError } from './errorText';

/**
 * A confirmation that asks for the password again (issue 37: removing a factor, new recovery codes). The
 * action runs with the typed password; its refusal is shown in the dialog, focus kept on the password.
 */
export function PasswordAgainModal({
  opened,
  title,
  children,
  action,
  danger,
  pending,
  error,
  onConfirm,
  onClose,
}: {
  opened: boolean;
  title: string;
  children: ReactNode;
  action: string;
  danger?: boolean;
  pending: boolean;
  error: unknown;
  onConfirm: (password: string) => void;
  onClose: () => void;
}) {
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setMissing(!password);
    if (password) onConfirm(password);
  };
  const close = () => {
    setPassword('');
    setMissing(false);
    onClose();
  };
  const passwordError = missing ? 'Password is required' : fieldError(error, 'password');
  return (
    <Modal opened={opened} onClose={close} title={title}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text size="sm">{children}</Text>
          <PasswordInput
            data-autofocus
            label="Password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={passwordError}
            required
          />
          {!!error && !fieldError(error, 'password') && (
            <Alert color="red" role="alert">
              {errorText(error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" color={danger ? 'red' : undefined} loading={pending}>
              {action}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

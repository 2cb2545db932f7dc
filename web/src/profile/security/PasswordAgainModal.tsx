import { Alert, Button, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, type ReactNode, useState } from 'react';
import { errorText, fieldError } from './errorText';

/**
 * A confirmation that asks for the password again (issue 37: removing a factor, new recovery codes; adding a
 * passkey, which also asks for its name: `name`). The action runs with the typed password (and name); its
 * refusal is shown in the dialog, focus kept on the password.
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
  name,
}: {
  opened: boolean;
  title: string;
  children: ReactNode;
  action: string;
  danger?: boolean;
  pending: boolean;
  error: unknown;
  onConfirm: (password: string, name: string) => void;
  onClose: () => void;
  /** A name field before the password: its label and first value ('label' is the API's field). */
  name?: { label: string; initial: string };
}) {
  const [password, setPassword] = useState('');
  const [label, setLabel] = useState(name?.initial ?? '');
  const [missing, setMissing] = useState<{ password?: boolean; name?: boolean }>({});
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const none = { password: !password, name: !!name && !label.trim() };
    setMissing(none);
    if (!none.password && !none.name) onConfirm(password, label.trim());
  };
  const close = () => {
    setPassword('');
    setLabel(name?.initial ?? '');
    setMissing({});
    onClose();
  };
  const passwordError = missing.password ? 'Password is required' : fieldError(error, 'password');
  const nameError = missing.name ? 'Name is required' : fieldError(error, 'label');
  return (
    <Modal opened={opened} onClose={close} title={title}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text size="sm">{children}</Text>
          {name && (
            <TextInput
              label={name.label}
              value={label}
              maxLength={64}
              onChange={(e) => setLabel(e.currentTarget.value)}
              error={nameError}
              required
            />
          )}
          <PasswordInput
            data-autofocus
            label="Password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={passwordError}
            required
          />
          {!!error && !fieldError(error, 'password') && !fieldError(error, 'label') && (
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

import { Alert, Button, Group, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { AUTH_MESSAGES, translateFieldErrors } from '@portal/contract';
import { useState } from 'react';
import { ApiError } from '../lib/apiClient';
import { useChangePassword } from './api/changePassword';
import { passwordFailureText } from './failure';
import { NEW_PASSWORD_LABELS, NewPasswordFields, passwordsMismatch } from './NewPasswordFields';
import { focusFirstInvalid } from '../shared/invalidFields';

const LABELS = {
  currentPassword: 'Current Password',
  newPassword: NEW_PASSWORD_LABELS.password,
  newPasswordAgain: NEW_PASSWORD_LABELS.again,
} as const;

interface Values {
  currentPassword: string;
  newPassword: string;
  newPasswordAgain: string;
}

/**
 * The Change Password form (000 §2 Change Password screen, §5 Change password): three required fields,
 * 'The new passwords do not match.' (submit disabled) while New Password Again differs, server field errors
 * under their fields (joined with ', '), and 'Change Later' only when `onChangeLater` is given (warn state).
 * `disabled` turns the fields and the submit off (inside the minimum-age restriction).
 */
export function ChangePasswordForm({
  onChanged,
  onChangeLater,
  disabled = false,
}: {
  onChanged: (newPassword: string) => Promise<void> | void;
  onChangeLater?: () => void;
  disabled?: boolean;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<Values>({
    initialValues: { currentPassword: '', newPassword: '', newPasswordAgain: '' },
    validate: {
      currentPassword: (v) => (v ? null : translateFieldErrors(LABELS.currentPassword, ['required'])),
      newPassword: (v) => (v ? null : translateFieldErrors(LABELS.newPassword, ['required'])),
      newPasswordAgain: (v) => (v ? null : translateFieldErrors(LABELS.newPasswordAgain, ['required'])),
    },
  });
  const mismatch = passwordsMismatch(form.values.newPassword, form.values.newPasswordAgain);

  const change = useChangePassword({
    mutationConfig: {
      onMutate: () => setFailure(null),
      onSuccess: async (_data, body) => {
        form.reset();
        await onChanged(body.newPassword);
      },
      onError: (error) => {
        setFailure(passwordFailureText(error, AUTH_MESSAGES.changeFailed, AUTH_MESSAGES.changeFailedForm));
        if (error instanceof ApiError) {
          const errors: Record<string, string> = {};
          for (const key of ['currentPassword', 'newPassword'] as const) {
            const reasons = error.fieldErrors[key];
            if (reasons?.length) errors[key] = translateFieldErrors(LABELS[key], reasons, false, ', ');
          }
          form.setErrors(errors);
        }
      },
    },
  });

  return (
    <form
      noValidate
      aria-label="Change Password"
      onSubmit={form.onSubmit(
        (v) => {
          if (!mismatch) change.mutate({ currentPassword: v.currentPassword, newPassword: v.newPassword });
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
        <PasswordInput
          label={LABELS.currentPassword}
          autoComplete="current-password"
          required
          {...form.getInputProps('currentPassword')}
          disabled={disabled}
        />
        <NewPasswordFields
          password={{ ...form.getInputProps('newPassword'), disabled }}
          again={{ ...form.getInputProps('newPasswordAgain'), disabled }}
          mismatch={mismatch}
        />
        <Group>
          <Button type="submit" loading={change.isPending} disabled={mismatch || disabled}>
            Change Password
          </Button>
          {onChangeLater && (
            <Button variant="default" onClick={onChangeLater} disabled={change.isPending}>
              Change Later
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}

import { PasswordInput } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { AUTH_MESSAGES } from '@portal/contract';

/** The two fields' labels (000 §2). */
export const NEW_PASSWORD_LABELS = { password: 'New Password', again: 'New Password Again' } as const;

/** 000 §5: 'New Password Again' must equal 'New Password'; an empty second field is not a mismatch. */
export const passwordsMismatch = (password: string, again: string): boolean => again !== '' && again !== password;

/**
 * 'New Password' and 'New Password Again' (000 §2 Set Password and Change Password screens), with 'The new
 * passwords do not match.' under the second field while they differ.
 */
export function NewPasswordFields(props: {
  password: GetInputPropsReturnType & { disabled?: boolean };
  again: GetInputPropsReturnType & { disabled?: boolean };
  mismatch: boolean;
}) {
  return (
    <>
      <PasswordInput label={NEW_PASSWORD_LABELS.password} autoComplete="new-password" required {...props.password} />
      <PasswordInput
        label={NEW_PASSWORD_LABELS.again}
        autoComplete="new-password"
        required
        {...props.again}
        error={props.again.error ?? (props.mismatch ? AUTH_MESSAGES.passwordsDoNotMatch : undefined)}
      />
    </>
  );
}

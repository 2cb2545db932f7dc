import { FIELD_LIMITS } from '@portal/contract';
import type { UseFormReturnType } from '@mantine/form';
import { DETAILS_LIMITS } from '../shared/userDetails/detailsFields';
import { FormTextField } from '../shared/userDetails/FormTextField';
import { USER_FIELD_LABELS, type UserFormValues } from './userForm';

type TextField = Exclude<keyof UserFormValues, 'country' | 'state' | 'portalRoleIds'>;

/** Each text field's limit (000 §5 Maximum lengths); the Details fields' are shared with the profile. */
const LIMITS: Record<TextField, number> = {
  firstName: FIELD_LIMITS.firstName,
  lastName: FIELD_LIMITS.lastName,
  email: FIELD_LIMITS.email,
  username: FIELD_LIMITS.username,
  gecos: FIELD_LIMITS.gecos,
  ...DETAILS_LIMITS,
};

/** The fields the server requires (the form note: 'All fields are required unless indicated.'). */
const REQUIRED: ReadonlySet<TextField> = new Set(['firstName', 'lastName', 'email', 'username']);

/**
 * One text field of the user form with its limit and counter; optional fields say so in the label. Read-only
 * when the viewer may not edit or the field is locked (000 §5 internal users).
 */
export function UserTextField({
  form,
  name,
  readOnly,
  hint,
}: {
  form: UseFormReturnType<UserFormValues>;
  name: TextField;
  readOnly: boolean;
  hint?: string;
}) {
  return (
    <FormTextField
      form={form}
      name={name}
      label={USER_FIELD_LABELS[name] ?? name}
      maxLength={LIMITS[name]}
      required={REQUIRED.has(name)}
      readOnly={readOnly}
      hint={hint}
    />
  );
}

import { FIELD_LIMITS } from '@portal/contract';
import type { UseFormReturnType } from '@mantine/form';
import { CountedTextInput } from '../shared/CountedText';
import { USER_FIELD_LABELS, type UserFormValues } from './userForm';

type TextField = Exclude<keyof UserFormValues, 'country' | 'state' | 'portalRoleIds'>;

/** Each text field's limit (000 §5 Maximum lengths). */
const LIMITS: Record<TextField, number> = {
  firstName: FIELD_LIMITS.firstName,
  lastName: FIELD_LIMITS.lastName,
  email: FIELD_LIMITS.email,
  username: FIELD_LIMITS.username,
  gecos: FIELD_LIMITS.gecos,
  organizationName: FIELD_LIMITS.organizationName,
  jobTitle: FIELD_LIMITS.jobTitle,
  phoneNumber: FIELD_LIMITS.phoneNumber,
  phoneExtension: FIELD_LIMITS.phoneExtension,
  address1: FIELD_LIMITS.address,
  address2: FIELD_LIMITS.address,
  city: FIELD_LIMITS.city,
  postalCode: FIELD_LIMITS.postalCode,
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
  const required = REQUIRED.has(name);
  const label = `${USER_FIELD_LABELS[name]}${required ? '' : ' (optional)'}`;
  return (
    <CountedTextInput
      label={label}
      title={hint}
      maxLength={LIMITS[name]}
      readOnly={readOnly}
      required={required}
      {...form.getInputProps(name)}
      value={form.values[name]}
      onBlur={() => form.setFieldValue(name, form.values[name].trim())}
    />
  );
}

import type { UseFormReturnType } from '@mantine/form';
import { CountedTextInput } from '../CountedText';

/**
 * One text field of a person form (the user detail, the profile) with its limit and counter; an optional
 * field says so in its label (the form note: 'All fields are required unless indicated.'). The value is
 * trimmed on blur. Typed loosely on the form so that forms of different shapes share it.
 */
export function FormTextField<T extends object>({
  form,
  name,
  label,
  maxLength,
  required = false,
  readOnly,
  hint,
}: {
  form: UseFormReturnType<T>;
  name: keyof T & string;
  label: string;
  maxLength: number;
  required?: boolean;
  readOnly: boolean;
  hint?: string;
}) {
  const f = form as unknown as UseFormReturnType<Record<string, string>>;
  const key: string = name;
  const value = f.values[key] ?? '';
  return (
    <CountedTextInput
      label={`${label}${required ? '' : ' (optional)'}`}
      title={hint}
      maxLength={maxLength}
      readOnly={readOnly}
      required={required}
      {...f.getInputProps(key)}
      value={value}
      onBlur={() => f.setFieldValue(key, value.trim())}
    />
  );
}

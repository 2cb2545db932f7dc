import type { UseFormReturnType } from '@mantine/form';

/**
 * The props binding a configuration editor's text field (a `CountedTextInput` or `CountedTextarea`, 001
 * §2.12) to its form value: the form's input props, the value as text (the counter reads it), and read-only
 * as the editor is (viewers without ADMIN). A field's own `readOnly` or `onBlur` given after these wins.
 */
export function textField<V>(editor: { form: UseFormReturnType<V>; readOnly: boolean }, name: keyof V & string) {
  return {
    readOnly: editor.readOnly,
    ...editor.form.getInputProps(name),
    value: editor.form.values[name] as string,
  };
}

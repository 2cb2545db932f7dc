import { Text, TextInput, Textarea, type TextInputProps, type TextareaProps } from '@mantine/core';

/** The character counter that turns red at the maximum length (000 §2 Shared widgets). */
function Counter({ length, max }: { length: number; max: number }) {
  const atMax = length >= max;
  return (
    <Text component="span" size="xs" c={atMax ? 'red' : 'dimmed'} fw={atMax ? 700 : undefined} data-at-max={atMax}>
      {length} / {max} characters
    </Text>
  );
}

type CountedTextareaProps = Omit<TextareaProps, 'maxLength' | 'value' | 'description'> & {
  value: string;
  maxLength: number;
};

export function CountedTextarea({ value, maxLength, ...rest }: CountedTextareaProps) {
  return (
    <Textarea
      autosize
      minRows={3}
      maxRows={10}
      {...rest}
      value={value}
      maxLength={maxLength}
      description={<Counter length={value.length} max={maxLength} />}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
    />
  );
}

type CountedTextInputProps = Omit<TextInputProps, 'maxLength' | 'value' | 'description'> & {
  value: string;
  maxLength: number;
};

export function CountedTextInput({ value, maxLength, ...rest }: CountedTextInputProps) {
  return (
    <TextInput
      {...rest}
      value={value}
      maxLength={maxLength}
      description={<Counter length={value.length} max={maxLength} />}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
    />
  );
}

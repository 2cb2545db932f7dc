import { Button, Group, type MantineSpacing } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A form's action row (000 §4 Saving): the primary action labelled `label` ('Submit Request', 'Save Changes'),
 * loading while `pending` and disabled when `disabled`; `children` (e.g. 'Remove Access'); then 'Reset', disabled
 * while `pending`, which calls `onReset`. The action submits the surrounding form unless `onAction` is given
 * (a section inside another form, which must not submit it).
 */
export function FormActions({
  label,
  pending,
  disabled,
  onAction,
  onReset,
  mt,
  children,
}: {
  label: string;
  pending: boolean;
  disabled?: boolean;
  onAction?: () => void;
  onReset: () => void;
  mt?: MantineSpacing;
  children?: ReactNode;
}) {
  return (
    <Group mt={mt}>
      <Button type={onAction ? 'button' : 'submit'} onClick={onAction} loading={pending} disabled={disabled}>
        {label}
      </Button>
      {children}
      <Button variant="default" disabled={pending} onClick={onReset}>
        Reset
      </Button>
    </Group>
  );
}

/** The usual `onReset` (000 §4): the form back to its loaded values and the page message cleared. */
export const resetFormAndMessage = (form: { reset: () => void }, setMessage: (message: null) => void) => () => {
  form.reset();
  setMessage(null);
};

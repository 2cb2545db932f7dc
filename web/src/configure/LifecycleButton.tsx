import { Button } from '@mantine/core';

/**
 * The activate / delete button of a configuration editor (001 §4: 'Delete' is a deactivate): an inactive
 * record offers 'Activate {noun}', an active one 'Delete {noun}', which opens the in-use dialog.
 */
export function LifecycleButton(props: {
  noun: string;
  inactive: boolean;
  activating: boolean;
  onActivate: () => void;
  onDelete: () => void;
}) {
  return props.inactive ? (
    <Button color="green" variant="light" loading={props.activating} onClick={props.onActivate}>
      Activate {props.noun}
    </Button>
  ) : (
    <Button color="red" variant="light" onClick={props.onDelete} ml="auto">
      Delete {props.noun}
    </Button>
  );
}

import { Badge, Button, Group, Switch } from '@mantine/core';
import { Link } from 'react-router-dom';

/** The create button (ADMIN only) and the 'Show inactive' switch above a configuration list. */
export function ListToolbar({
  createLabel,
  createTo,
  canCreate,
  showInactive,
  onShowInactive,
}: {
  createLabel: string;
  createTo: string;
  canCreate: boolean;
  showInactive: boolean;
  onShowInactive: (show: boolean) => void;
}) {
  return (
    <Group justify="space-between">
      {canCreate ? (
        <Button component={Link} to={createTo}>
          {createLabel}
        </Button>
      ) : (
        <span />
      )}
      <Switch
        label="Show inactive (deleted)"
        checked={showInactive}
        onChange={(e) => onShowInactive(e.currentTarget.checked)}
      />
    </Group>
  );
}

/** Active / Inactive status cell. */
export function StatusBadge({ inactive }: { inactive: boolean }) {
  return (
    <Badge color={inactive ? 'gray' : 'green'} variant="light">
      {inactive ? 'Inactive' : 'Active'}
    </Badge>
  );
}

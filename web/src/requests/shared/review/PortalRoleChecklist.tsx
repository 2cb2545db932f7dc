import { Button, Checkbox, Group, List, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { PortalRole } from '@portal/contract';

/** 001 §6 Roles and permissions, as the help modal explains them. */
const PERMISSION_HELP: [string, string][] = [
  ['ADMIN', 'All functionality, including configuration and every dashboard item.'],
  [
    'WRITE_USERS',
    'Approve and deny registrations, edit users and the review screens (access-change and profile-change requests).',
  ],
  ['READ_USERS', 'View registrations, users and requests without changing them; shows the Administration menu.'],
  ['USER', 'Dashboard access. New roles almost always include it.'],
  ['SET_OWN_PASSWORD', 'Change their own password only.'],
];

/** The 'Permissions and Roles Help' modal of 001 §2.4. */
function PermissionsHelp() {
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <Button variant="subtle" size="compact-sm" onClick={open}>
        Permissions and Roles Help
      </Button>
      <Modal opened={opened} onClose={close} title="Permissions and Roles Help" size="lg">
        <Stack gap="sm">
          <Text size="sm">
            A portal role carries permissions and decides which dashboard items a user sees. A user gets the highest
            permission among their portal roles; READ_USERS also gives USER and SET_OWN_PASSWORD.
          </Text>
          <List size="sm" spacing="xs">
            {PERMISSION_HELP.map(([name, text]) => (
              <List.Item key={name}>
                <Text span fw={700} size="sm">
                  {name}
                </Text>
                : {text}
              </List.Item>
            ))}
          </List>
          <Text size="sm">
            Study roles are different: they describe the access a user holds at AOs, LAOs and studies, and are requested
            in the role blocks.
          </Text>
        </Stack>
      </Modal>
    </>
  );
}

/**
 * The portal role checkboxes of Review Pending User (001 §2.4): 'Select all that apply', each role with its
 * description and its permissions, and the help modal.
 */
export function PortalRoleChecklist({
  roles,
  value,
  onChange,
  error,
  readOnly,
}: {
  roles: PortalRole[];
  value: string[];
  onChange: (ids: string[]) => void;
  error?: string;
  readOnly: boolean;
}) {
  return (
    <Stack gap={4}>
      <Checkbox.Group
        label="Portal Roles"
        description="Select all that apply"
        value={value}
        onChange={readOnly ? undefined : onChange}
        error={error}
      >
        <Stack gap="xs" mt="xs">
          {roles.map((role) => (
            <Checkbox
              key={role.id}
              value={String(role.id)}
              label={role.description}
              description={role.permissions.join(', ')}
              disabled={readOnly}
            />
          ))}
        </Stack>
      </Checkbox.Group>
      <Group>
        <PermissionsHelp />
      </Group>
    </Stack>
  );
}

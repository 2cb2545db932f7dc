import { Badge, Button, Table, VisuallyHidden } from '@mantine/core';
import type { SecondFactor } from '@portal/contract';
import { formatDateTime } from '../../shared/format';

const STATE_LABEL: Record<SecondFactor['state'], string> = {
  ACTIVE: 'In use',
  AWAITING_EMAIL: 'Waiting for the emailed link',
};

/**
 * The person's factors of one kind (authenticator apps, or passkeys and security keys): name, state, when
 * added and last used, and 'Remove <name>' where `removable` allows it.
 */
export function FactorTable({
  factors,
  removable,
  onRemove,
}: {
  factors: SecondFactor[];
  removable: (factor: SecondFactor) => boolean;
  onRemove: (factor: SecondFactor) => void;
}) {
  return (
    <Table.ScrollContainer minWidth={0}>
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Added</Table.Th>
            <Table.Th>Last used</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {factors.map((f) => (
            <Table.Tr key={f.id}>
              <Table.Td>{f.label}</Table.Td>
              <Table.Td>
                <Badge variant="light" color={f.state === 'ACTIVE' ? 'green' : 'blue'}>
                  {STATE_LABEL[f.state]}
                </Badge>
              </Table.Td>
              <Table.Td>{formatDateTime(f.createdAt)}</Table.Td>
              <Table.Td>{formatDateTime(f.lastUsedAt)}</Table.Td>
              <Table.Td>
                {removable(f) && (
                  <Button size="xs" variant="subtle" color="red" onClick={() => onRemove(f)}>
                    Remove {f.label}
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

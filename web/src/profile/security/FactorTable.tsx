import { Badge, Button, Table, VisuallyHidden } from '@mantine/core';
import type { SecondFactor } from '@portal/contract';
import stacked from '../../shared/DataTable.module.css';
import { formatDateTime } from '../../shared/format';

/** Each cell names its column: the phone's stacked layout (the shared one) shows it before the value. */
const cell = (label: string) => ({ 'data-label': label });

const STATE_LABEL: Record<SecondFactor['state'], string> = {
  ACTIVE: 'In use',
  AWAITING_EMAIL: 'Waiting for the emailed link',
};

/**
 * The person's factors of one kind (authenticator apps, or passkeys and security keys): name, state, when
 * added and last used, and 'Remove <name>' where `removable` allows it. Below 768 px each row stacks into
 * 'label value' lines (DataTable.module.css), so nothing is cut off on a phone.
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
    <div className={stacked.stacked}>
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
              <Table.Td {...cell('Name')}>{f.label}</Table.Td>
              <Table.Td {...cell('Status')}>
                <Badge variant="light" color={f.state === 'ACTIVE' ? 'green' : 'blue'}>
                  {STATE_LABEL[f.state]}
                </Badge>
              </Table.Td>
              <Table.Td {...cell('Added')}>{formatDateTime(f.createdAt)}</Table.Td>
              <Table.Td {...cell('Last used')}>{formatDateTime(f.lastUsedAt)}</Table.Td>
              <Table.Td {...cell('')}>
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
    </div>
  );
}

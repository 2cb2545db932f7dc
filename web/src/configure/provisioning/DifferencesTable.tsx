import { Button, Group, Pagination, Table, Text } from '@mantine/core';
import { PROVISIONING_DIFFERENCE_LABELS, type ProvisioningDifference } from '@portal/contract';
import { useState } from 'react';
import stacked from '../../shared/DataTable.module.css';
import { orMissing } from '../../shared/format';

/** Rows a page of the table shows: a report holds up to 1,000, far more than a screen. */
export const DIFFERENCES_PAGE_SIZE = 25;

/** Each cell names its column: the phone's stacked layout (the shared one) shows it before the value. */
const cell = (label: string) => ({ 'data-label': label });

/**
 * A report's differences, a page at a time (issue 41): the kind in words, userName, externalId and the detail;
 * with `onResync`, 'Re-sync this person' on each row that names a portal user. Below 768 px each row stacks
 * into 'label value' lines (DataTable.module.css), so the table never scrolls sideways.
 */
export function DifferencesTable({
  differences,
  onResync,
  resyncing,
}: {
  differences: ProvisioningDifference[];
  onResync?: (portalUserId: number) => void;
  /** The person whose re-sync is under way. */
  resyncing?: number | null;
}) {
  const [page, setPage] = useState(1);
  if (!differences.length) return <Text size="sm">No differences: the target holds what the portal says.</Text>;
  const pages = Math.ceil(differences.length / DIFFERENCES_PAGE_SIZE);
  const current = Math.min(page, pages);
  const shown = differences.slice((current - 1) * DIFFERENCES_PAGE_SIZE, current * DIFFERENCES_PAGE_SIZE);
  const first = (current - 1) * DIFFERENCES_PAGE_SIZE;
  return (
    <div className={stacked.stacked}>
      <Table striped withTableBorder aria-label="Differences" verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Difference</Table.Th>
            <Table.Th>User name</Table.Th>
            <Table.Th>External ID</Table.Th>
            <Table.Th>Detail</Table.Th>
            {onResync && <Table.Th>Action</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {shown.map((d, i) => (
            <Table.Tr key={first + i}>
              <Table.Td {...cell('Difference')}>{PROVISIONING_DIFFERENCE_LABELS[d.kind]}</Table.Td>
              <Table.Td {...cell('User name')}>{orMissing(d.userName)}</Table.Td>
              <Table.Td {...cell('External ID')} style={{ overflowWrap: 'anywhere' }}>
                {orMissing(d.externalId)}
              </Table.Td>
              <Table.Td {...cell('Detail')} style={{ overflowWrap: 'anywhere' }}>
                {d.detail}
              </Table.Td>
              {onResync && (
                <Table.Td {...cell('Action')}>
                  {d.portalUserId !== null && (
                    <Button
                      size="compact-sm"
                      variant="light"
                      aria-label={`Re-sync this person: ${d.userName ?? `user ${d.portalUserId}`}`}
                      loading={resyncing === d.portalUserId}
                      onClick={() => onResync(d.portalUserId!)}
                    >
                      Re-sync this person
                    </Button>
                  )}
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group justify="space-between" wrap="wrap" mt="xs">
        <Text size="sm" role="status" aria-live="polite">
          {first + 1}–{first + shown.length} of {differences.length} differences shown
        </Text>
        {pages > 1 && (
          <Pagination
            total={pages}
            value={current}
            onChange={setPage}
            getControlProps={(control) => ({ 'aria-label': `${control} page` })}
            getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
          />
        )}
      </Group>
    </div>
  );
}

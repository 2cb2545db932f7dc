import { SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { ACCESS_REVIEW_REVIEWER_LABELS, type AccessReviewCampaignDetail } from '@portal/contract';
import { formatDateTime, joinOrMissing, orMissing } from '../../shared/format';
import type { ChartLine } from './DecisionsChart';

/** One number with its name, as a tile. */
function Count({ label, value }: { label: string; value: number }) {
  return (
    <Stack gap={0}>
      <Text size="xl" fw={700} data-testid={`count-${label.toLowerCase().replace(/\s+/g, '-')}`}>
        {value}
      </Text>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
    </Stack>
  );
}

/** A campaign's counts (issue 25: decided / undecided / to remove; after close what was removed and kept). */
export function CampaignCounts({ c }: { c: AccessReviewCampaignDetail }) {
  const ended = c.status === 'CLOSED';
  return (
    <SimpleGrid cols={{ base: 2, sm: ended ? 7 : 4 }} spacing="md">
      <Count label="Items" value={c.itemsTotal} />
      <Count label="Decided" value={c.decided} />
      <Count label="Undecided" value={c.undecided} />
      <Count label="To remove" value={c.toRemove} />
      {ended && <Count label="Removed" value={c.removedCount} />}
      {ended && <Count label="Kept" value={c.keptCount} />}
      {ended && <Count label="Changed" value={c.changedCount} />}
    </SimpleGrid>
  );
}

const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;

/** The campaign's definition and its dates, as a two-column description. */
export function CampaignDefinition({ c, systemNames }: { c: AccessReviewCampaignDetail; systemNames: string[] }) {
  const rows: [string, string][] = [
    ['Reviewers', ACCESS_REVIEW_REVIEWER_LABELS[c.reviewers]],
    ['Systems', joinOrMissing(systemNames)],
    ['Study roles', joinOrMissing(c.scope.roleNames)],
    ['LAOs', joinOrMissing(c.scope.laoIds)],
    ['Duration', days(c.durationDays)],
    ['Reminders', c.reminderEveryDays ? `Every ${days(c.reminderEveryDays)}` : 'None'],
    ['Undecided items at the deadline', c.defaultDecision === 'KEEP' ? 'Keep' : 'Remove'],
    ['Created', `${formatDateTime(c.sysdat)} by ${c.createdByUsername}`],
    ['Opened', formatDateTime(c.openedAt)],
    ['Deadline', formatDateTime(c.deadline)],
    ['Closed', c.closedAt ? `${formatDateTime(c.closedAt)} by ${orMissing(c.closedByUsername)}` : orMissing(null)],
  ];
  return (
    <Table variant="vertical" withTableBorder layout="fixed" aria-label="Campaign definition">
      <Table.Tbody>
        {rows.map(([k, v]) => (
          <Table.Tr key={k}>
            <Table.Th w={{ base: '40%', sm: 260 }}>{k}</Table.Th>
            <Table.Td>{v}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The chart's numbers as a table, for exact reading. */
export function ChartTable({ lines }: { lines: ChartLine[] }) {
  return (
    <Table
      withTableBorder
      horizontalSpacing="xs"
      aria-label="Decisions by reviewer and undecided items by pool"
      maw={560}
      // Long usernames and pool names wrap, so the four columns fit a 320 px screen (WCAG 1.4.10).
      style={{ overflowWrap: 'anywhere' }}
    >
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Reviewer or pool</Table.Th>
          <Table.Th scope="col" ta="right">
            Keep
          </Table.Th>
          <Table.Th scope="col" ta="right">
            Remove
          </Table.Th>
          <Table.Th scope="col" ta="right">
            Undecided
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {lines.map((l) => (
          <Table.Tr key={l.key}>
            <Table.Td>{l.label}</Table.Td>
            <Table.Td ta="right">{l.counts.keep ?? ''}</Table.Td>
            <Table.Td ta="right">{l.counts.remove ?? ''}</Table.Td>
            <Table.Td ta="right">{l.counts.undecided ?? ''}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

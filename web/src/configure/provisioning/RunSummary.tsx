import { Badge, Group, Stack, Text } from '@mantine/core';
import type { ReconciliationSummary } from '@portal/contract';
import { formatDateTime, orMissing } from '../../shared/format';

const STATUS = {
  RUNNING: { label: 'Running', color: 'blue' },
  DONE: { label: 'Done', color: 'green' },
  FAILED: { label: 'Failed', color: 'red' },
} as const;

/** A run's status as a badge (Running / Done / Failed). */
export function RunStatusBadge({ status }: { status: ReconciliationSummary['status'] }) {
  return (
    <Badge color={STATUS[status].color} variant="light" tt="none" style={{ whiteSpace: 'nowrap' }}>
      {STATUS[status].label}
    </Badge>
  );
}

/** The differences of a run in one line ('2 should not exist, 1 missing, 0 drifted'). */
export const differencesText = (r: ReconciliationSummary) =>
  `${r.orphans} should not exist, ${r.missing} missing, ${r.drifted} drifted`;

/**
 * One reconciliation run in words (issue 41): its status, when it started and ended, who asked for it (none: the
 * schedule), the accounts on each side and the differences found, and its error when it failed.
 */
export function RunSummary({ run }: { run: ReconciliationSummary }) {
  return (
    <Stack gap={4}>
      <Group gap="xs">
        <RunStatusBadge status={run.status} />
        <Text size="sm">
          Run #{run.id}, started {formatDateTime(run.startedAt)}
          {run.finishedAt ? `, ended ${formatDateTime(run.finishedAt)}` : ''}, by{' '}
          {run.requestedBy ? orMissing(run.requestedBy) : 'the schedule'}
        </Text>
      </Group>
      <Text size="sm">
        {run.targetAccounts} accounts at the target, {run.portalAccounts} in the portal: {differencesText(run)}.
      </Text>
      {run.error && (
        <Text size="sm" c="red">
          {run.error}
        </Text>
      )}
    </Stack>
  );
}

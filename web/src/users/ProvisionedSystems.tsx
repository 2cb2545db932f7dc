import { Badge, Button, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  PROVISIONING_MESSAGES,
  PROVISIONING_STATE_LABELS,
  type ProvisioningAccount,
  type ProvisioningState,
} from '@portal/contract';
import { ApiError } from '../lib/apiClient';
import { useHasPermissions } from '../lib/sessionQueries';
import stacked from '../shared/DataTable.module.css';
import { LoadError } from '../shared/ErrorAlert';
import { showErrorToast } from '../shared/errorToast';
import { MISSING } from '../shared/format';
import { DateTimeCell } from '../shared/TableCells';
import { useResyncAccount, useUserProvisioning } from './api/userProvisioning';

const STATE_COLORS: Record<ProvisioningState, string> = { IN_SYNC: 'green', PENDING: 'yellow', ERROR: 'red' };

/** Each cell names its column: the phone's stacked layout shows it before the value. */
const cell = (label: string) => ({ 'data-label': label });

const atTarget = (a: ProvisioningAccount) => (a.active === null ? MISSING : a.active ? 'Active' : 'Deactivated');

/** The accounts' states in one sentence, announced when the polling changes them. */
function summary(accounts: ProvisioningAccount[]): string {
  const count = (s: ProvisioningState) => accounts.filter((a) => a.state === s).length;
  const parts = (['IN_SYNC', 'PENDING', 'ERROR'] as const)
    .filter((s) => count(s) > 0)
    .map((s) => `${count(s)} ${PROVISIONING_STATE_LABELS[s].toLowerCase()}`);
  return `Accounts at ${accounts.length} provisioned system${accounts.length === 1 ? '' : 's'}: ${parts.join(', ')}.`;
}

/**
 * 'Provisioned systems' on the user detail's Access tab (issue 41): per system that provisions the person, the
 * account's state (In sync / Pending / Error with the target's message), whether it is active at the target,
 * the last change and the last time in sync; 'Re-sync' per row for ADMIN. Re-read every 2 s while any row is
 * Pending; hidden while loading and when the person has no provisioned account.
 */
export function ProvisionedSystems({ portalUserId }: { portalUserId: number }) {
  const accounts = useUserProvisioning(portalUserId);
  const isAdmin = useHasPermissions('ADMIN');
  const resync = useResyncAccount({
    mutationConfig: {
      onSuccess: () =>
        notifications.show({ color: 'green', title: 'Success', message: PROVISIONING_MESSAGES.resyncStarted }),
      onError: (error) =>
        showErrorToast(
          'Unable to start the re-sync.',
          error instanceof ApiError && error.globalErrors.length ? error.globalErrors.join(' ') : error.message,
        ),
    },
  });

  if (accounts.isError) {
    return <LoadError text="Problem loading the provisioned systems." onRetry={() => void accounts.refetch()} />;
  }
  if (!accounts.data?.length) return null;
  const rows = accounts.data;
  return (
    <Stack gap="xs" component="section" aria-labelledby="provisioned-systems-heading">
      <Title order={3} id="provisioned-systems-heading">
        Provisioned systems
      </Title>
      <Text size="sm" role="status" aria-live="polite">
        {summary(rows)}
      </Text>
      <div className={stacked.stacked}>
        <Table striped withTableBorder aria-label="Provisioned systems" verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>System</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th>At the system</Table.Th>
              <Table.Th>Last change</Table.Th>
              <Table.Th>Last in sync</Table.Th>
              {isAdmin && <Table.Th>Action</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((a) => (
              <Table.Tr key={a.systemAccessId}>
                <Table.Td {...cell('System')}>{a.systemName}</Table.Td>
                <Table.Td {...cell('State')}>
                  <Badge color={STATE_COLORS[a.state]} variant="light" tt="none">
                    {PROVISIONING_STATE_LABELS[a.state]}
                  </Badge>
                  {a.state === 'ERROR' && a.lastError && (
                    <Text size="sm" mt={4} style={{ overflowWrap: 'anywhere' }}>
                      {a.lastError}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td {...cell('At the system')}>{atTarget(a)}</Table.Td>
                <Table.Td {...cell('Last change')}>
                  <DateTimeCell value={a.changedAt} />
                </Table.Td>
                <Table.Td {...cell('Last in sync')}>
                  <DateTimeCell value={a.syncedAt} />
                </Table.Td>
                {isAdmin && (
                  <Table.Td {...cell('Action')}>
                    <Button
                      size="compact-sm"
                      variant="light"
                      aria-label={`Re-sync ${a.systemName}`}
                      loading={resync.isPending && resync.variables?.systemId === a.systemAccessId}
                      onClick={() => resync.mutate({ systemId: a.systemAccessId, portalUserId })}
                    >
                      Re-sync
                    </Button>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
    </Stack>
  );
}

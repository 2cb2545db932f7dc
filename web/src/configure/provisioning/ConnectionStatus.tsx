import { Alert, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { formatDateTime } from '../../shared/format';
import { useTestProvisioning } from '../api/provisioningActions';
import { describeFailure } from '../errors';
import type { ProvisioningPartProps } from './partProps';

/**
 * A provisioning connection's state (issue 41): 'Test connection' (ADMIN; it tests the saved connection, as the
 * token is entered once) with the last test's outcome and time, and the accounts at the target by state.
 */
export function ConnectionStatus({ system, connection, readOnly, onMessage }: ProvisioningPartProps) {
  const test = useTestProvisioning({
    mutationConfig: {
      onMutate: () => onMessage(null),
      onError: (error) => onMessage(describeFailure(error, 'Unable to test the connection.', {}).message),
    },
  });
  const { lastTestAt, lastTestOk, lastTestMessage, accounts } = connection;
  return (
    <Stack gap="sm" component="section" aria-labelledby="provisioning-status-heading">
      <Title order={3} id="provisioning-status-heading">
        Connection state
      </Title>
      {/* Announced when a test answers: the result replaces what was there. */}
      <div role="status" aria-live="polite">
        {lastTestAt === null ? (
          <Text size="sm">Not tested yet.</Text>
        ) : (
          <Alert color={lastTestOk ? 'green' : 'red'}>
            <Text size="sm">{lastTestMessage}</Text>
            <Text size="sm" c="dimmed">
              Last test: {formatDateTime(lastTestAt)}
            </Text>
          </Alert>
        )}
      </div>
      {!readOnly && (
        <Group>
          <Button variant="light" onClick={() => test.mutate(system.id)} loading={test.isPending}>
            Test Connection
          </Button>
          <Text size="sm" c="dimmed">
            Tests the saved connection: save changes first.
          </Text>
        </Group>
      )}
      <Group gap="xs" aria-label="Accounts at the target" role="group">
        <Text size="sm">Accounts:</Text>
        <Badge color="green" variant="light" tt="none">
          {accounts.inSync} in sync
        </Badge>
        <Badge color="yellow" variant="light" tt="none">
          {accounts.pending} pending
        </Badge>
        <Badge color="red" variant="light" tt="none">
          {accounts.error} with an error
        </Badge>
      </Group>
    </Stack>
  );
}

import { Alert, Badge, Button, Group, Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import type { SecondFactor } from '@portal/contract';
import { useState } from 'react';
import { LoadError } from '../../shared/ErrorAlert';
import { formatDateTime } from '../../shared/format';
import { PageLoader } from '../../shared/PageLoader';
import { AddAuthenticatorApp } from './AddAuthenticatorApp';
import { useRemoveFactor, useRenewRecoveryCodes, useSecondFactors } from './api';
import { PasswordAgainModal } from './PasswordAgainModal';
import { RecoveryCodesList } from './RecoveryCodesList';

const STATE_LABEL: Record<SecondFactor['state'], string> = {
  ACTIVE: 'In use',
  AWAITING_EMAIL: 'Waiting for the emailed link',
};

/**
 * The profile's Security tab (issue 37; docs/decisions.md "Second factors"): the person's authenticator apps
 * and recovery codes, adding an app, removing one and new recovery codes (each with the password again). The
 * last app in use cannot be removed: the API says so, and the button is not offered.
 */
export function SecurityTab() {
  const overview = useSecondFactors();
  const remove = useRemoveFactor();
  const renew = useRenewRecoveryCodes();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<SecondFactor | null>(null);
  const [renewing, setRenewing] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);

  if (overview.isPending) return <PageLoader label="Loading your sign-in methods" />;
  if (overview.error)
    return <LoadError text="Problem loading your sign-in methods." onRetry={() => void overview.refetch()} />;
  const { factors, recoveryCodesLeft, required, available } = overview.data;
  const active = factors.filter((f) => f.state === 'ACTIVE');

  return (
    <Stack gap="lg">
      <Paper withBorder p="md" component="section" aria-labelledby="apps-heading">
        <Title order={2} mb="sm" id="apps-heading">
          Authenticator Apps
        </Title>
        <Stack gap="md">
          <Text size="sm">
            After your password, the portal asks for a code from your authenticator app: someone who learns your
            password still cannot sign in as you.
            {required && ' Your portal roles require it.'}
          </Text>
          {!available && <Alert color="gray">Second sign-in steps are not available on this portal.</Alert>}
          {factors.length === 0 ? (
            <Text c="dimmed">You have no authenticator app yet.</Text>
          ) : (
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
                        {(f.state !== 'ACTIVE' || active.length > 1) && (
                          <Button size="xs" variant="subtle" color="red" onClick={() => setRemoving(f)}>
                            Remove {f.label}
                          </Button>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {active.length === 1 && (
            <Text size="sm" c="dimmed">
              Your only app in use cannot be removed: add another one first, or ask an administrator to reset your
              sign-in methods.
            </Text>
          )}
          {adding ? (
            <Paper withBorder p="md">
              <AddAuthenticatorApp onDone={() => setAdding(false)} onCancel={() => setAdding(false)} />
            </Paper>
          ) : (
            available && (
              <Group>
                <Button onClick={() => setAdding(true)}>Add authenticator app</Button>
              </Group>
            )
          )}
        </Stack>
      </Paper>

      <Paper withBorder p="md" component="section" aria-labelledby="codes-heading">
        <Title order={2} mb="sm" id="codes-heading">
          Recovery Codes
        </Title>
        <Stack gap="md">
          <Text size="sm">
            {active.length === 0
              ? 'You get ten recovery codes once an authenticator app is in use.'
              : `${recoveryCodesLeft} of 10 recovery codes left. New codes replace every earlier one.`}
          </Text>
          {codes && <RecoveryCodesList codes={codes} />}
          {active.length > 0 && (
            <Group>
              <Button variant="default" onClick={() => setRenewing(true)}>
                New recovery codes
              </Button>
            </Group>
          )}
        </Stack>
      </Paper>

      <PasswordAgainModal
        opened={!!removing}
        title={`Remove ${removing?.label ?? ''}`}
        action="Remove"
        danger
        pending={remove.isPending}
        error={remove.error}
        onClose={() => {
          setRemoving(null);
          remove.reset();
        }}
        onConfirm={(password) =>
          remove.mutate({ factorId: removing!.id, password }, { onSuccess: () => setRemoving(null) })
        }
      >
        Its codes will no longer sign you in. Enter your password to remove it.
      </PasswordAgainModal>
      <PasswordAgainModal
        opened={renewing}
        title="New recovery codes"
        action="Get new codes"
        pending={renew.isPending}
        error={renew.error}
        onClose={() => {
          setRenewing(false);
          renew.reset();
        }}
        onConfirm={(password) =>
          renew.mutate(password, {
            onSuccess: (answer) => {
              setCodes(answer.recoveryCodes);
              setRenewing(false);
            },
          })
        }
      >
        Your earlier recovery codes stop working. Enter your password to get ten new ones.
      </PasswordAgainModal>
    </Stack>
  );
}

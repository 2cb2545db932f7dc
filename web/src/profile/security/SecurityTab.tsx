import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { SecondFactor } from '@portal/contract';
import { useState } from 'react';
import { LoadError } from '../../shared/ErrorAlert';
import { PageLoader } from '../../shared/PageLoader';
import { AddAuthenticatorApp } from './AddAuthenticatorApp';
import { useRemoveFactor, useRenewRecoveryCodes, useSecondFactors } from './api';
import { FactorTable } from './FactorTable';
import { PasskeysSection } from './PasskeysSection';
import { PasswordAgainModal } from './PasswordAgainModal';
import { RecoveryCodesList } from './RecoveryCodesList';

/**
 * The profile's Security tab (issue 37; docs/decisions.md "Second factors", "Passkeys"): the person's
 * authenticator apps, passkeys and security keys, and recovery codes; adding an app or a passkey, removing one
 * and new recovery codes (each with the password again). The last factor in use, of either kind, cannot be
 * removed: the API says so, and the button is not offered.
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
  const apps = factors.filter((f) => f.kind === 'TOTP');
  // The API keeps the last factor in use, of either kind; a pending one may always go.
  const removable = (f: SecondFactor) => f.state !== 'ACTIVE' || active.length > 1;

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
          {apps.length === 0 ? (
            <Text c="dimmed">You have no authenticator app yet.</Text>
          ) : (
            <FactorTable factors={apps} removable={removable} onRemove={setRemoving} />
          )}
          {active.length === 1 && active[0]!.kind === 'TOTP' && (
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

      <PasskeysSection
        passkeys={factors.filter((f) => f.kind === 'WEBAUTHN')}
        onlyOne={active.length === 1 && active[0]!.kind === 'WEBAUTHN'}
        removable={removable}
        onRemove={setRemoving}
      />

      <Paper withBorder p="md" component="section" aria-labelledby="codes-heading">
        <Title order={2} mb="sm" id="codes-heading">
          Recovery Codes
        </Title>
        <Stack gap="md">
          <Text size="sm">
            {active.length === 0
              ? 'You get ten recovery codes once an authenticator app or a passkey is in use.'
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
        {removing?.kind === 'WEBAUTHN'
          ? 'It will no longer sign you in. Enter your password to remove it.'
          : 'Its codes will no longer sign you in. Enter your password to remove it.'}
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

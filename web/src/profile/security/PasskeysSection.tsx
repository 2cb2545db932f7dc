import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { type ConfirmTotpAnswer, PASSKEY_TEXTS, type SecondFactor } from '@portal/contract';
import { useState } from 'react';
import { passkeysSupported } from '../../lib/webauthn';
import { useAddPasskey } from './api';
import { FactorTable } from './FactorTable';
import { PasswordAgainModal } from './PasswordAgainModal';
import { RecoveryCodesList } from './RecoveryCodesList';

/**
 * The Security tab's passkeys and security keys (docs/decisions.md "Passkeys"): the person's keys (name, state,
 * added, last used) and adding one under the other factors' rules: its name and the password again, then the
 * browser's prompt; a first factor waits for the mailed link, a further one is in use at once (with recovery
 * codes when none were left). Removal is the tab's (`onRemove`), as for an app.
 */
export function PasskeysSection({
  passkeys,
  onlyOne,
  removable,
  onRemove,
}: {
  passkeys: SecondFactor[];
  /** The person's only factor in use is a passkey: it cannot be removed. */
  onlyOne: boolean;
  removable: (factor: SecondFactor) => boolean;
  onRemove: (factor: SecondFactor) => void;
}) {
  const add = useAddPasskey();
  const [adding, setAdding] = useState(false);
  const [result, setResult] = useState<ConfirmTotpAnswer | null>(null);
  const supported = passkeysSupported();

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="passkeys-heading">
      <Title order={2} mb="sm" id="passkeys-heading">
        Passkeys and Security Keys
      </Title>
      <Stack gap="md">
        <Text size="sm">
          A passkey (on this device or your phone) or a security key signs you in without a code, and a fake portal page
          cannot use it: it works only on this portal. Use it as your second step, or sign in with it alone.
        </Text>
        {passkeys.length === 0 ? (
          <Text c="dimmed">You have no passkey or security key yet.</Text>
        ) : (
          <FactorTable factors={passkeys} removable={removable} onRemove={onRemove} />
        )}
        {onlyOne && (
          <Text size="sm" c="dimmed">
            Your only passkey in use cannot be removed: add another sign-in method first, or ask an administrator to
            reset your sign-in methods.
          </Text>
        )}
        {result && (
          <>
            {result.state === 'AWAITING_EMAIL' ? (
              <Alert color="blue" title="Check your email" role="status">
                We sent you a link to confirm this passkey. It signs you in once you follow the link: this makes sure
                nobody who only knows your password can add a key of their own.
              </Alert>
            ) : (
              <Alert color="green" title="Passkey added" role="status">
                From your next sign-in you can use it.
              </Alert>
            )}
            {result.recoveryCodes?.length ? <RecoveryCodesList codes={result.recoveryCodes} /> : null}
          </>
        )}
        {supported ? (
          <Group>
            <Button
              onClick={() => {
                setResult(null);
                setAdding(true);
              }}
            >
              Add a passkey
            </Button>
          </Group>
        ) : (
          <Alert color="gray">{PASSKEY_TEXTS.unsupported}</Alert>
        )}
      </Stack>
      <PasswordAgainModal
        opened={adding}
        title="Add a passkey"
        action="Continue"
        name={{ label: 'Name of the passkey', initial: 'Passkey' }}
        pending={add.isPending}
        error={add.error}
        onClose={() => {
          setAdding(false);
          add.reset();
        }}
        onConfirm={(password, label) =>
          add.mutate(
            { password, label },
            {
              onSuccess: (answer) => {
                setResult(answer);
                setAdding(false);
              },
            },
          )
        }
      >
        Give it a name you will recognise, and enter your password again. Your browser then asks you to create the
        passkey or to touch your security key.
      </PasswordAgainModal>
    </Paper>
  );
}

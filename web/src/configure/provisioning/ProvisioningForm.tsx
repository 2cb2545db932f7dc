import {
  Button,
  Group,
  NumberInput,
  PasswordInput,
  Radio,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import {
  CONFIG_MESSAGES,
  PROVISIONING_LIMITS,
  PROVISIONING_MESSAGES as M,
  type ProvisioningConnection,
  type SystemDetail,
} from '@portal/contract';
import type { PageMessage } from '../../shared/ErrorAlert';
import { focusFirstInvalid } from '../../shared/invalidFields';
import { useDeleteProvisioning, useSaveProvisioning } from '../api/saveProvisioning';
import { describeFailure } from '../errors';
import {
  PROVISIONING_FIELD_LABELS,
  PROVISIONING_LABELS as L,
  provisioningBody,
  provisioningValues,
  validateProvisioning,
  type ProvisioningValues,
} from './provisioningValues';

const URL_RULES =
  "The target's SCIM 2.0 endpoint: https, or http to 127.0.0.1 or localhost outside production (e.g. https://lis.example.org/scim/v2).";

/**
 * The settings of a system's provisioning connection (issue 41): SCIM base URL, bearer token (a password field,
 * never filled: blank keeps the stored one), on/off, how study access travels, deletion on removal (after a
 * confirmation, since it destroys the target's account), retry days and the reconciliation interval; 'Set Up
 * Provisioning' / 'Save Connection', 'Reset' or 'Cancel', and 'Remove Provisioning' after confirmation.
 * Read-only without ADMIN. Page messages go to `onMessage`.
 */
export function ProvisioningForm({
  system,
  connection,
  readOnly,
  onMessage,
  onCancel,
  onRemoved,
}: {
  system: SystemDetail;
  connection: ProvisioningConnection | null;
  readOnly: boolean;
  onMessage: (message: PageMessage | null) => void;
  onCancel: () => void;
  onRemoved: () => void;
}) {
  const form = useForm<ProvisioningValues>({
    initialValues: provisioningValues(connection),
    validate: validateProvisioning,
  });
  const failed = (text: string) => (error: unknown) => {
    const failure = describeFailure(error, text, PROVISIONING_FIELD_LABELS);
    form.setErrors(failure.fieldErrors);
    onMessage(failure.message);
  };
  const success = (text: string) => notifications.show({ color: 'green', title: 'Success', message: text });

  const save = useSaveProvisioning({
    mutationConfig: {
      onMutate: () => onMessage(null),
      onSuccess: (res) => {
        if (res.status === 304 || !res.data) return onMessage({ kind: 'info', text: CONFIG_MESSAGES.noChanges });
        // The token typed is stored now: it leaves the field (and the browser's memory of the form) at once.
        form.setFieldValue('token', '');
        form.resetDirty({ ...form.getValues(), token: '' });
        success(M.saved);
      },
      onError: failed(M.saveFailed),
    },
  });
  const remove = useDeleteProvisioning({
    mutationConfig: {
      onMutate: () => onMessage(null),
      onSuccess: () => {
        success(M.deleted);
        onRemoved();
      },
      onError: failed(M.deleteFailed),
    },
  });

  const confirmRemove = () =>
    modals.openConfirmModal({
      title: 'Remove provisioning?',
      children: (
        <Text size="sm">
          The portal stops creating, changing and deactivating accounts at {system.systemName}; the accounts already
          there stay as they are. The stored bearer token is deleted.
        </Text>
      ),
      labels: { confirm: 'Remove Provisioning', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(system.id),
    });
  /** Turning deletion on is destructive (a removal then erases the target's account): it asks first. */
  const toggleDelete = (on: boolean) => {
    if (!on) return form.setFieldValue('deleteOnRemoval', false);
    modals.openConfirmModal({
      title: 'Delete accounts on removal?',
      children: (
        <Text size="sm">
          When a person loses access to {system.systemName}, their account there is deleted instead of deactivated: what
          the target holds for it (history, ownership of records) may be lost and cannot be restored by the portal.
        </Text>
      ),
      labels: { confirm: 'Delete on Removal', cancel: 'Keep Deactivating' },
      confirmProps: { color: 'red' },
      onConfirm: () => form.setFieldValue('deleteOnRemoval', true),
    });
  };

  const busy = save.isPending || remove.isPending;
  const { min: dMin, max: dMax } = PROVISIONING_LIMITS.retryDays;
  const { min: rMin, max: rMax } = PROVISIONING_LIMITS.reconcileEveryMinutes;
  return (
    <form
      noValidate
      aria-label="Provisioning connection"
      onSubmit={form.onSubmit(
        (values) => save.mutate({ systemId: system.id, body: provisioningBody(values) }),
        (_errors, _values, event) => focusFirstInvalid(event),
      )}
    >
      <Stack gap="md">
        <TextInput
          label={L.baseUrl}
          description={URL_RULES}
          type="url"
          maxLength={PROVISIONING_LIMITS.baseUrl}
          required
          readOnly={readOnly}
          {...form.getInputProps('baseUrl')}
        />
        {readOnly ? (
          <Text size="sm">
            {L.token}: {connection?.hasToken ? 'on record (never shown)' : 'none'}
          </Text>
        ) : (
          <PasswordInput
            label={L.token}
            description={connection?.hasToken ? `${M.tokenKept} ${M.tokenOnce}` : M.tokenOnce}
            placeholder={connection?.hasToken ? 'Stored (hidden)' : undefined}
            maxLength={PROVISIONING_LIMITS.token}
            autoComplete="new-password"
            {...form.getInputProps('token')}
          />
        )}
        <Switch
          label={L.enabled}
          description="Off: nothing is sent to the target; changes wait until it is on again."
          disabled={readOnly}
          {...form.getInputProps('enabled', { type: 'checkbox' })}
        />
        <Radio.Group label={L.accessAs} readOnly={readOnly} {...form.getInputProps('accessAs')}>
          <Stack gap="xs" mt="xs">
            <Radio
              value="EXTENSION"
              disabled={readOnly}
              label="The portal's User extension (studyAccess: study role, study and organisation)"
            />
            <Radio value="NONE" disabled={readOnly} label="Not sent: the core User only (name, e-mail, active)" />
          </Stack>
        </Radio.Group>
        <Switch
          label={L.deleteOnRemoval}
          description="Off: a removal deactivates the account (active: false) and keeps it."
          color="red"
          disabled={readOnly}
          checked={form.values.deleteOnRemoval}
          onChange={(e) => toggleDelete(e.currentTarget.checked)}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NumberInput
            label={L.retryDays}
            description={`How long a target that is down is retried (${dMin}-${dMax}).`}
            min={dMin}
            max={dMax}
            allowDecimal={false}
            readOnly={readOnly}
            {...form.getInputProps('retryDays')}
          />
          <NumberInput
            label={L.reconcileEveryMinutes}
            description={`How often the target is compared with the portal (${rMin}-${rMax}).`}
            min={rMin}
            max={rMax}
            allowDecimal={false}
            readOnly={readOnly}
            {...form.getInputProps('reconcileEveryMinutes')}
          />
        </SimpleGrid>
        {!readOnly && (
          <Group mt="sm">
            <Button type="submit" loading={save.isPending} disabled={busy && !save.isPending}>
              {connection ? 'Save Connection' : 'Set Up Provisioning'}
            </Button>
            <Button variant="default" onClick={() => (connection ? form.reset() : onCancel())} disabled={busy}>
              {connection ? 'Reset' : 'Cancel'}
            </Button>
            {connection && (
              <Button
                color="red"
                variant="light"
                ml="auto"
                onClick={confirmRemove}
                loading={remove.isPending}
                disabled={busy}
              >
                Remove Provisioning
              </Button>
            )}
          </Group>
        )}
      </Stack>
    </form>
  );
}

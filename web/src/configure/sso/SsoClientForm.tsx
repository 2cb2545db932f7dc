import { Alert, Button, Group, Radio, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import {
  CONFIG_MESSAGES,
  SSO_CLIENT_LIMITS,
  SSO_CLIENT_MESSAGES,
  type SsoClient,
  type SystemDetail,
} from '@portal/contract';
import type { PageMessage } from '../../shared/ErrorAlert';
import { useDeleteSsoClient } from '../api/deleteSsoClient';
import { useRotateSsoClientSecret } from '../api/rotateSsoClientSecret';
import { useSaveSsoClient } from '../api/saveSsoClient';
import {
  describeSsoFailure,
  ssoClientBody,
  ssoClientValues,
  validateSsoClient,
  type SsoClientValues,
} from './ssoClientValues';
import { UriListInput } from './UriListInput';
import { focusFirstInvalid } from '../../shared/invalidFields';

const M = SSO_CLIENT_MESSAGES;
/** The two optional single URIs of a client. */
const OPTIONAL_URIS = [
  {
    name: 'backchannelLogoutUri',
    label: 'Back-channel logout URI (optional)',
    description: "Where the portal posts a logout token when a person's session or access ends.",
  },
  {
    name: 'initiateLoginUri',
    label: 'Initiate-login URI (optional)',
    description: "Where 'My applications' sends a person to start signing in to the system.",
  },
] as const;
const URI_RULES =
  'https, or http to 127.0.0.1 or localhost outside production; no fragment (#) and no user name or password.';

/**
 * The fields and buttons of a system's single sign-on client (issue 22): client id, public or confidential,
 * the URI lists, the two optional URIs and the sign-in level it asks for by default (issue 37); 'Register
 * Client' / 'Save Client', 'Reset', 'Rotate Secret' (a confidential client, after confirmation) and 'Remove
 * Single Sign-On' (after confirmation). A secret issued by
 * a save or a rotation goes to `onSecret` (shown once); page messages go to `onMessage`.
 */
export function SsoClientForm({
  system,
  client,
  readOnly,
  onSecret,
  onMessage,
  onCancel,
  onRemoved,
}: {
  system: SystemDetail;
  client: SsoClient | null;
  readOnly: boolean;
  onSecret: (secret: string, clientId: string) => void;
  onMessage: (message: PageMessage | null) => void;
  onCancel: () => void;
  onRemoved: () => void;
}) {
  const form = useForm<SsoClientValues>({ initialValues: ssoClientValues(client), validate: validateSsoClient });
  const failed = (text: string) => (error: unknown) => {
    const failure = describeSsoFailure(error, text);
    form.setErrors(failure.errors);
    onMessage(failure.message);
  };
  const success = (text: string) => notifications.show({ color: 'green', title: 'Success', message: text });

  const save = useSaveSsoClient({
    mutationConfig: {
      onMutate: () => onMessage(null),
      onSuccess: (res) => {
        if (res.status === 304 || !res.data) return onMessage({ kind: 'info', text: CONFIG_MESSAGES.noChanges });
        success(M.saved(res.data.clientId));
        if (res.data.clientSecret) onSecret(res.data.clientSecret, res.data.clientId);
      },
      onError: failed(M.saveFailed),
    },
  });
  const rotate = useRotateSsoClientSecret({
    mutationConfig: {
      onMutate: () => onMessage(null),
      onSuccess: (saved) => {
        success(M.rotated);
        if (saved.clientSecret) onSecret(saved.clientSecret, saved.clientId);
      },
      onError: failed(M.rotateFailed),
    },
  });
  const remove = useDeleteSsoClient({
    mutationConfig: {
      onMutate: () => onMessage(null),
      onSuccess: () => {
        success(M.deleted);
        onRemoved();
      },
      onError: failed(M.deleteFailed),
    },
  });

  const confirmRotate = () =>
    modals.openConfirmModal({
      title: 'Rotate client secret?',
      children: (
        <Text size="sm">
          A new secret is issued and shown once. The current secret stops working at once: {system.systemName} must be
          given the new one.
        </Text>
      ),
      labels: { confirm: 'Rotate Secret', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => rotate.mutate(system.id),
    });
  const confirmRemove = () =>
    modals.openConfirmModal({
      title: 'Remove single sign-on?',
      children: (
        <Text size="sm">
          {system.systemName} will no longer sign people in through the portal: its client ID and secret stop working.
        </Text>
      ),
      labels: { confirm: 'Remove Single Sign-On', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(system.id),
    });

  const { clientType } = form.values;
  const busy = save.isPending || rotate.isPending || remove.isPending;
  return (
    <form
      noValidate
      aria-label="Single sign-on client"
      onSubmit={form.onSubmit(
        (values) => save.mutate({ systemId: system.id, body: ssoClientBody(values) }),
        (_errors, _values, event) => focusFirstInvalid(event),
      )}
    >
      <Stack gap="md">
        <TextInput
          label="Client ID"
          description="Letters, digits, '.', '_' and '-': the system's OpenID Connect client_id."
          maxLength={SSO_CLIENT_LIMITS.clientId}
          required
          readOnly={readOnly}
          {...form.getInputProps('clientId')}
        />
        <Radio.Group label="Client type" readOnly={readOnly} {...form.getInputProps('clientType')}>
          <Stack gap="xs" mt="xs">
            <Radio value="confidential" disabled={readOnly} label="Confidential: a server that keeps a client secret" />
            <Radio value="public" disabled={readOnly} label="Public: no secret, signs in with PKCE (browser or app)" />
          </Stack>
        </Radio.Group>
        {!readOnly && client && !client.isPublic && clientType === 'public' && (
          <Alert color="yellow" role="status">
            Saving as public removes the client secret.
          </Alert>
        )}
        {!readOnly && clientType === 'confidential' && !client?.hasSecret && (
          <Text size="sm" c="dimmed">
            Saving issues a client secret, shown once.
          </Text>
        )}
        {client && (
          <Text size="sm">
            Client secret: {client.hasSecret ? 'on record (never shown again)' : 'none (public client)'}
          </Text>
        )}
        <UriListInput form={form} name="redirectUris" readOnly={readOnly} description={URI_RULES} />
        <UriListInput
          form={form}
          name="postLogoutRedirectUris"
          readOnly={readOnly}
          description="Where the system may send a person after signing out of the portal."
        />
        {OPTIONAL_URIS.map(({ name, label, description }) => (
          <TextInput
            key={name}
            label={label}
            description={description}
            type="url"
            readOnly={readOnly}
            {...form.getInputProps(name)}
          />
        ))}
        <Radio.Group
          label="Sign-in level"
          description="What the system asks for when its own sign-in request names no level."
          readOnly={readOnly}
          {...form.getInputProps('defaultLevel')}
        >
          <Stack gap="xs" mt="xs">
            <Radio value="none" disabled={readOnly} label="Password: the portal sign-in is enough" />
            <Radio
              value="multiFactor"
              disabled={readOnly}
              label="Multi-factor: a person signed in with the password alone is asked for the second step"
            />
            <Radio
              value="phishingResistant"
              disabled={readOnly}
              label="Phishing-resistant: only a sign-in with a passkey or security key; a person without one is refused"
            />
          </Stack>
        </Radio.Group>
        {!readOnly && (
          <Group mt="sm">
            <Button type="submit" loading={save.isPending} disabled={busy && !save.isPending}>
              {client ? 'Save Client' : 'Register Client'}
            </Button>
            <Button variant="default" onClick={() => (client ? form.reset() : onCancel())} disabled={busy}>
              {client ? 'Reset' : 'Cancel'}
            </Button>
            {client && !client.isPublic && (
              <Button variant="light" onClick={confirmRotate} loading={rotate.isPending} disabled={busy}>
                Rotate Secret
              </Button>
            )}
            {client && (
              <Button
                color="red"
                variant="light"
                ml="auto"
                onClick={confirmRemove}
                loading={remove.isPending}
                disabled={busy}
              >
                Remove Single Sign-On
              </Button>
            )}
          </Group>
        )}
      </Stack>
    </form>
  );
}

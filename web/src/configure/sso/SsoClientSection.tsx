import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { SSO_CLIENT_MESSAGES, type SystemDetail } from '@portal/contract';
import { useState } from 'react';
import { useHasPermissions } from '../../lib/sessionQueries';
import { LoadError, MessageAlert, type PageMessage } from '../../shared/ErrorAlert';
import { PageLoader } from '../../shared/PageLoader';
import { useSsoClient } from '../api/getSsoClient';
import { SecretModal } from './SecretModal';
import { SsoClientForm } from './SsoClientForm';

/**
 * 'Single sign-on' on a system's page (issue 22; Configure → Systems, 001 §2.12): the system as an OpenID
 * Connect client of the portal. Loading, load failure (with a retry), 'not set up' (ADMIN may set it up), and
 * the client's form (read-only without ADMIN). A secret issued by a save or rotation is shown once in a modal.
 * Not shown for the fixed system, which is the portal itself.
 */
export function SsoClientSection({ system }: { system: SystemDetail }) {
  const query = useSsoClient(system.id);
  const readOnly = !useHasPermissions('ADMIN');
  const [settingUp, setSettingUp] = useState(false);
  const [message, setMessage] = useState<PageMessage | null>(null);
  const [secret, setSecret] = useState<{ value: string; clientId: string } | null>(null);

  let body;
  if (query.isPending) body = <PageLoader label="Loading single sign-on" />;
  else if (query.isError) body = <LoadError text={SSO_CLIENT_MESSAGES.load} onRetry={() => void query.refetch()} />;
  else if (!query.data && !settingUp) {
    body = (
      <Stack gap="sm" align="flex-start">
        <Text>{SSO_CLIENT_MESSAGES.notSetUp}</Text>
        {!readOnly && (
          <Button variant="light" onClick={() => setSettingUp(true)}>
            Set Up Single Sign-On
          </Button>
        )}
      </Stack>
    );
  } else {
    body = (
      <SsoClientForm
        // A saved, rotated or removed client starts a fresh form with what the server answered.
        key={query.data?.updatedAt ?? 'new'}
        system={system}
        client={query.data ?? null}
        readOnly={readOnly}
        onSecret={(value, clientId) => setSecret({ value, clientId })}
        onMessage={setMessage}
        onCancel={() => {
          setSettingUp(false);
          setMessage(null);
        }}
        onRemoved={() => setSettingUp(false)}
      />
    );
  }

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="sso-client-heading" maw={820}>
      <Stack gap="md">
        <Title order={2} id="sso-client-heading">
          Single sign-on
        </Title>
        <Text size="sm" c="dimmed">
          People with access to {system.systemName} sign in to it through the portal (OpenID Connect): the system is
          registered here as a client.
        </Text>
        <MessageAlert message={message} onClose={() => setMessage(null)} />
        {body}
      </Stack>
      <SecretModal
        secret={secret?.value ?? null}
        clientId={secret?.clientId ?? ''}
        onClose={() => {
          setSecret(null);
          setSettingUp(false);
        }}
      />
    </Paper>
  );
}

import { Button, Divider, Paper, Stack, Text, Title } from '@mantine/core';
import { PROVISIONING_MESSAGES as M, type SystemDetail } from '@portal/contract';
import { useState } from 'react';
import { useHasPermissions } from '../../lib/sessionQueries';
import { LoadError, MessageAlert, type PageMessage } from '../../shared/ErrorAlert';
import { PageLoader } from '../../shared/PageLoader';
import { useProvisioning } from '../api/getProvisioning';
import { ConnectionStatus } from './ConnectionStatus';
import { ProvisioningForm } from './ProvisioningForm';
import { settingsKey } from './provisioningValues';
import { ReconciliationPanel } from './ReconciliationPanel';

/**
 * 'Provisioning (SCIM)' on a system's page (issue 41; Configure → Systems): the portal keeps the system's
 * accounts with SCIM 2.0. Loading, load failure (with a retry), 'not set up' (ADMIN may set it up), then the
 * connection's form (read-only without ADMIN), its state ('Test Connection', account counts) and its
 * reconciliation (last run, 'Reconcile Now', reports). Not shown for the fixed system, which is the portal.
 */
export function ProvisioningSection({ system }: { system: SystemDetail }) {
  const query = useProvisioning(system.id);
  const readOnly = !useHasPermissions('ADMIN');
  const [settingUp, setSettingUp] = useState(false);
  const [message, setMessage] = useState<PageMessage | null>(null);

  let body;
  if (query.isPending) body = <PageLoader label="Loading provisioning" />;
  else if (query.isError) body = <LoadError text={M.load} onRetry={() => void query.refetch()} />;
  else if (!query.data && !settingUp) {
    body = (
      <Stack gap="sm" align="flex-start">
        <Text>{M.notSetUp}</Text>
        {!readOnly && (
          <Button variant="light" onClick={() => setSettingUp(true)}>
            Set Up Provisioning
          </Button>
        )}
      </Stack>
    );
  } else {
    const connection = query.data ?? null;
    body = (
      <Stack gap="lg">
        <ProvisioningForm
          // A save that changed the settings (or a removal) starts a fresh form; a test or a re-read does not.
          key={settingsKey(connection)}
          system={system}
          connection={connection}
          readOnly={readOnly}
          onMessage={setMessage}
          onCancel={() => {
            setSettingUp(false);
            setMessage(null);
          }}
          onRemoved={() => setSettingUp(false)}
        />
        {connection && (
          <>
            <Divider />
            <ConnectionStatus system={system} connection={connection} readOnly={readOnly} onMessage={setMessage} />
            <Divider />
            <ReconciliationPanel system={system} connection={connection} readOnly={readOnly} onMessage={setMessage} />
          </>
        )}
      </Stack>
    );
  }

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="provisioning-heading" maw={820}>
      <Stack gap="md">
        <Title order={2} id="provisioning-heading">
          Provisioning (SCIM)
        </Title>
        <Text size="sm" c="dimmed">
          The portal creates, changes and deactivates the accounts of the people with access to {system.systemName}{' '}
          there (SCIM 2.0), before their first sign-in.
        </Text>
        <MessageAlert message={message} onClose={() => setMessage(null)} />
        {body}
      </Stack>
    </Paper>
  );
}

import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { PROVISIONING_MESSAGES as M } from '@portal/contract';
import { useState } from 'react';
import { useReconcileNow } from '../api/provisioningActions';
import { describeFailure } from '../errors';
import type { ProvisioningPartProps } from './partProps';
import { PastRuns } from './PastRuns';
import { ReconciliationReportView } from './ReconciliationReportView';
import { RunSummary } from './RunSummary';

/**
 * Reconciliation of a provisioning connection (issue 41; report-only): the last run's summary, 'Reconcile Now'
 * (ADMIN, after a confirmation; the new run's report opens and follows it to its end), 'Show Report' of the
 * last run, and the past runs, each with its report.
 */
export function ReconciliationPanel({ system, connection, readOnly, onMessage }: ProvisioningPartProps) {
  const last = connection.lastReconciliation;
  const [open, setOpen] = useState<number | null>(null);
  const reconcile = useReconcileNow({
    mutationConfig: {
      onMutate: () => onMessage(null),
      onSuccess: (run) => {
        notifications.show({ color: 'green', title: 'Success', message: M.reconcileStarted });
        setOpen(run.id);
      },
      onError: (error) => onMessage(describeFailure(error, 'Unable to start the reconciliation.', {}).message),
    },
  });
  const confirmReconcile = () =>
    modals.openConfirmModal({
      title: 'Reconcile now?',
      children: (
        <Text size="sm">
          Every account at {system.systemName} is read and compared with what the portal holds. The report lists the
          differences; nothing is changed at the target.
        </Text>
      ),
      labels: { confirm: 'Reconcile Now', cancel: 'Cancel' },
      onConfirm: () => reconcile.mutate(system.id),
    });

  const reportId = `provisioning-report-${system.id}`;
  return (
    <Stack gap="sm" component="section" aria-labelledby="provisioning-reconciliation-heading">
      <Title order={3} id="provisioning-reconciliation-heading">
        Reconciliation
      </Title>
      <Text size="sm" c="dimmed">
        Every {connection.reconcileEveryMinutes} minutes the target&apos;s accounts are compared with the portal&apos;s
        truth: accounts that should not exist, accounts missing, and attributes that drifted.
      </Text>
      {last ? <RunSummary run={last} /> : <Text size="sm">Not reconciled yet.</Text>}
      <Group>
        {!readOnly && (
          <Button
            variant="light"
            onClick={confirmReconcile}
            loading={reconcile.isPending}
            disabled={!connection.enabled}
          >
            Reconcile Now
          </Button>
        )}
        {last && (
          <Button
            variant="default"
            aria-expanded={open !== null}
            aria-controls={reportId}
            onClick={() => setOpen(open === null ? last.id : null)}
          >
            {open === null ? 'Show Report' : 'Hide Report'}
          </Button>
        )}
      </Group>
      {!readOnly && !connection.enabled && <Text size="sm">{M.notEnabled}</Text>}
      <div id={reportId}>
        {open !== null && (
          <ReconciliationReportView system={system} runId={open} readOnly={readOnly} onMessage={onMessage} />
        )}
      </div>
      {last && (
        <Stack gap="xs">
          <Title order={4}>Past runs</Title>
          <PastRuns systemId={system.id} selected={open} onSelect={setOpen} />
        </Stack>
      )}
    </Stack>
  );
}

import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { PROVISIONING_LIMITS, PROVISIONING_MESSAGES as M, type SystemDetail } from '@portal/contract';
import { saveDownloadedFile } from '../../lib/saveFile';
import { LoadError, type PageMessage } from '../../shared/ErrorAlert';
import { PageLoader } from '../../shared/PageLoader';
import { useDownloadDifferences, useReconciliationReport } from '../api/getReconciliations';
import { useResyncPerson } from '../api/provisioningActions';
import { describeFailure } from '../errors';
import { DifferencesTable } from './DifferencesTable';
import { RunSummary } from './RunSummary';

/**
 * One reconciliation run's report (issue 41): its counts, the table of its differences (kind in words, userName,
 * externalId, detail; the first PROVISIONING_LIMITS.reportDifferences, paged in the browser),
 * 'Download CSV' with all of them, and 'Re-sync this person' (ADMIN) on a row that names a portal user.
 */
export function ReconciliationReportView({
  system,
  runId,
  readOnly,
  onMessage,
}: {
  system: SystemDetail;
  runId: number;
  readOnly: boolean;
  onMessage: (message: PageMessage | null) => void;
}) {
  const report = useReconciliationReport(system.id, runId);
  const download = useDownloadDifferences({
    mutationConfig: {
      onSuccess: (file) =>
        onMessage({
          kind: 'success',
          text: `Differences downloaded: ${saveDownloadedFile(file, `reconciliation-${runId}-differences.csv`)}`,
        }),
      onError: (error) => onMessage(describeFailure(error, 'Unable to download the differences.', {}).message),
    },
  });
  const resync = useResyncPerson({
    mutationConfig: {
      onMutate: () => onMessage(null),
      onSuccess: () => notifications.show({ color: 'green', title: 'Success', message: M.resyncStarted }),
      onError: (error) => onMessage(describeFailure(error, 'Unable to start the re-sync.', {}).message),
    },
  });

  let body;
  if (report.isPending) body = <PageLoader label="Loading the report" />;
  else if (report.isError) body = <LoadError text={M.loadReconciliation} onRetry={() => void report.refetch()} />;
  else {
    const r = report.data;
    const total = r.orphans + r.missing + r.drifted;
    body = (
      <Stack gap="sm">
        <RunSummary run={r} />
        {total > r.differences.length && (
          <Text size="sm">
            The first {r.differences.length} of {total} differences; the CSV holds all of them.
          </Text>
        )}
        <Group>
          <Button
            variant="light"
            loading={download.isPending}
            disabled={r.status === 'RUNNING'}
            onClick={() => download.mutate({ systemId: system.id, runId })}
          >
            Download CSV
          </Button>
        </Group>
        <DifferencesTable
          differences={r.differences}
          resyncing={resync.isPending ? (resync.variables?.portalUserId ?? null) : null}
          onResync={readOnly ? undefined : (portalUserId) => resync.mutate({ systemId: system.id, portalUserId })}
        />
        <Text size="xs" c="dimmed">
          A report lists at most {PROVISIONING_LIMITS.reportDifferences} differences.
        </Text>
      </Stack>
    );
  }
  return (
    <Stack gap="sm" component="section" aria-labelledby={`reconciliation-${runId}-heading`}>
      <Title order={4} id={`reconciliation-${runId}-heading`}>
        Report of run #{runId}
      </Title>
      {body}
    </Stack>
  );
}

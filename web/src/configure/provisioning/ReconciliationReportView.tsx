import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  PROVISIONING_DIFFERENCE_LABELS,
  PROVISIONING_LIMITS,
  PROVISIONING_MESSAGES as M,
  type ProvisioningDifference,
  type SystemDetail,
} from '@portal/contract';
import { useMemo } from 'react';
import { saveDownloadedFile } from '../../lib/saveFile';
import { ClientDataTable } from '../../shared/DataTable';
import { LoadError, type PageMessage } from '../../shared/ErrorAlert';
import { orMissing } from '../../shared/format';
import { PageLoader } from '../../shared/PageLoader';
import { useDownloadDifferences, useReconciliationReport } from '../api/getReconciliations';
import { useResyncPerson } from '../api/provisioningActions';
import { describeFailure } from '../errors';
import { RunSummary } from './RunSummary';

/** A difference with the row id the table needs (differences have none of their own). */
type Row = ProvisioningDifference & { row: number };

const filterText = (d: Row) =>
  [PROVISIONING_DIFFERENCE_LABELS[d.kind], d.userName, d.externalId, d.detail].filter(Boolean).join(' ');

/**
 * One reconciliation run's report (issue 41): its counts, the table of its differences (kind in words, userName,
 * externalId, detail; the first PROVISIONING_LIMITS.reportDifferences, paged and filtered in the browser),
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
  const rows = useMemo<Row[]>(() => (report.data?.differences ?? []).map((d, row) => ({ ...d, row })), [report.data]);
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
  else if (report.isError)
    body = <LoadError text="Problem loading the reconciliation." onRetry={() => void report.refetch()} />;
  else {
    const r = report.data;
    const total = r.orphans + r.missing + r.drifted;
    body = (
      <Stack gap="sm">
        <RunSummary run={r} />
        {total > rows.length && (
          <Text size="sm">
            The first {rows.length} of {total} differences; the CSV holds all of them.
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
        <ClientDataTable<Row>
          ariaLabel="Differences"
          records={rows}
          idAccessor="row"
          filterLabel="Filter differences"
          filterText={filterText}
          initialSort={{ columnAccessor: 'row', direction: 'asc' }}
          sortValue={(d, key) => (key === 'kind' ? PROVISIONING_DIFFERENCE_LABELS[d.kind] : d[key as keyof Row])}
          columns={[
            {
              accessor: 'kind',
              title: 'Difference',
              sortable: true,
              render: (d) => PROVISIONING_DIFFERENCE_LABELS[d.kind],
            },
            { accessor: 'userName', title: 'User name', sortable: true, render: (d) => orMissing(d.userName) },
            { accessor: 'externalId', title: 'External ID', render: (d) => orMissing(d.externalId) },
            {
              accessor: 'detail',
              title: 'Detail',
              render: (d) => <span style={{ overflowWrap: 'anywhere' }}>{d.detail}</span>,
            },
            ...(readOnly
              ? []
              : [
                  {
                    accessor: 'portalUserId' as const,
                    title: 'Action',
                    render: (d: Row) =>
                      d.portalUserId !== null && (
                        <Button
                          size="compact-sm"
                          variant="light"
                          aria-label={`Re-sync this person: ${d.userName ?? `user ${d.portalUserId}`}`}
                          loading={resync.isPending && resync.variables?.portalUserId === d.portalUserId}
                          onClick={() => resync.mutate({ systemId: system.id, portalUserId: d.portalUserId! })}
                        >
                          Re-sync this person
                        </Button>
                      ),
                  },
                ]),
          ]}
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

import { Button } from '@mantine/core';
import { CONSTANTS, PROVISIONING_MESSAGES, type ReconciliationSummary } from '@portal/contract';
import { useState } from 'react';
import { ServerDataTable } from '../../shared/DataTable';
import { LoadError } from '../../shared/ErrorAlert';
import { DateTimeCell } from '../../shared/TableCells';
import { useReconciliations } from '../api/getReconciliations';
import { RunStatusBadge, differencesText } from './RunSummary';

const SORT = { columnAccessor: 'startedAt', direction: 'desc' } as const;

/**
 * The reconciliation runs of a system, newest first, a page at a time from the server (issue 41): status, start,
 * end, who asked, the differences, and 'Report' to open that run's report (`selected` is the one open).
 */
export function PastRuns({
  systemId,
  selected,
  onSelect,
}: {
  systemId: number;
  selected: number | null;
  onSelect: (runId: number) => void;
}) {
  const [view, setView] = useState({ page: 1, size: CONSTANTS.tablePageSizes[0] as number });
  const runs = useReconciliations(systemId, view);
  if (runs.isError)
    return <LoadError text={PROVISIONING_MESSAGES.loadReconciliations} onRetry={() => void runs.refetch()} />;
  return (
    <ServerDataTable<ReconciliationSummary>
      ariaLabel="Reconciliation runs"
      records={runs.data?.content ?? []}
      totalRecords={runs.data?.totalElements ?? 0}
      page={view.page}
      onPageChange={(page) => setView((v) => ({ ...v, page }))}
      recordsPerPage={view.size}
      onRecordsPerPageChange={(size) => setView({ page: 1, size })}
      sortStatus={SORT}
      onSortStatusChange={() => {}}
      fetching={runs.isFetching}
      columns={[
        { accessor: 'id', title: 'Run', render: (r) => `#${r.id}` },
        { accessor: 'status', title: 'Status', render: (r) => <RunStatusBadge status={r.status} /> },
        { accessor: 'startedAt', title: 'Started', render: (r) => <DateTimeCell value={r.startedAt} /> },
        { accessor: 'finishedAt', title: 'Ended', render: (r) => <DateTimeCell value={r.finishedAt} /> },
        { accessor: 'requestedBy', title: 'Asked by', render: (r) => r.requestedBy ?? 'Schedule' },
        { accessor: 'orphans', title: 'Differences', render: differencesText },
        {
          accessor: 'actions',
          title: 'Report',
          render: (r) => (
            <Button
              size="compact-sm"
              variant={selected === r.id ? 'filled' : 'light'}
              aria-pressed={selected === r.id}
              aria-label={`Report of run #${r.id}`}
              onClick={() => onSelect(r.id)}
            >
              Report
            </Button>
          ),
        },
      ]}
    />
  );
}

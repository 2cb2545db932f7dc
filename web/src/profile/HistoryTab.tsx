import { Alert, Stack, Title } from '@mantine/core';
import {
  MESSAGES,
  REQUEST_STATUS_LABELS,
  REQUEST_TYPE_LABELS,
  type AccessModRequest,
  type System,
} from '@portal/contract';
import type { DataTableColumn } from 'mantine-datatable';
import { useCallback } from 'react';
import { useOwnRequests } from '../lib/sessionQueries';
import { ClientDataTable } from '../shared/DataTable';
import { CondensedList } from '../shared/CondensedList';
import { LoadError } from '../shared/ErrorAlert';
import { StatusBadge } from '../shared/StatusBadge';
import { CondensedText, DateTimeCell } from '../shared/TableCells';
import { formatDateTime, joinOrMissing, orMissing, sitesText } from '../shared/format';
import { systemNames, useSystems } from '../shared/referenceData';

/** The cells of one access request row, as text (also used by the filter). */
function cells(r: AccessModRequest, systems: System[] | undefined) {
  const blocks = r.accessControls;
  return {
    dateSubmitted: formatDateTime(r.sysdat),
    requestType: REQUEST_TYPE_LABELS[r.requestType] ?? r.requestType,
    roles: joinOrMissing(blocks.map((b) => b.roleName)),
    sites: joinOrMissing(blocks.map((b) => sitesText(b)).filter((t) => t !== '---')),
    studies: joinOrMissing(blocks.flatMap((b) => b.studyNames)),
    systems: joinOrMissing([...new Set(blocks.flatMap((b) => systemNames(b.systemAccessIds, systems)))]),
    requesterComments: orMissing(r.requesterComments),
    reviewerComments: orMissing(r.reviewerComments),
    status: REQUEST_STATUS_LABELS[r.requestStatus] ?? r.requestStatus,
  };
}

/**
 * Requests History tab (000 §2 Profile screen, 001 §2.9): the user's own access requests, newest first,
 * with a filter box. The reviewer-comments column is hidden when viewing one's own history.
 */
export function HistoryTab() {
  const requests = useOwnRequests();
  const systems = useSystems();
  const filterText = useCallback(
    (r: AccessModRequest) => Object.values(cells(r, systems.data)).join(' '),
    [systems.data],
  );
  const sortValue = useCallback(
    (r: AccessModRequest, key: string) =>
      key === 'sysdat' ? r.sysdat : cells(r, systems.data)[key as keyof ReturnType<typeof cells>],
    [systems.data],
  );

  const text = (key: keyof ReturnType<typeof cells>) => (r: AccessModRequest) => cells(r, systems.data)[key];
  const blocks = (r: AccessModRequest) => r.accessControls;
  // Status first-class (second, after the date), long lists and comments condensed, the date breaking before
  // its time: the row stays a few lines at 1280 px and nothing needs sideways scrolling (issue 9).
  const columns: DataTableColumn<AccessModRequest>[] = [
    { accessor: 'sysdat', title: 'Date Submitted', sortable: true, render: (r) => <DateTimeCell value={r.sysdat} /> },
    {
      accessor: 'status',
      title: 'Request Status',
      sortable: true,
      render: (r) => <StatusBadge status={r.requestStatus} />,
    },
    { accessor: 'requestType', title: 'Request Type', sortable: true, render: text('requestType') },
    {
      accessor: 'roles',
      title: 'Study Role(s)',
      sortable: true,
      render: (r) => <CondensedList items={blocks(r).map((b) => b.roleName)} noun={['role', 'roles']} />,
    },
    {
      accessor: 'sites',
      title: 'LAOs / AOs',
      render: (r) => (
        <CondensedList
          items={blocks(r).flatMap((b) => [...(b.laoIds ?? []), ...(b.siteCodes ?? [])])}
          noun={['site', 'sites']}
        />
      ),
    },
    {
      accessor: 'studies',
      title: 'Study(s)',
      render: (r) => <CondensedList items={blocks(r).flatMap((b) => b.studyNames)} noun={['study', 'studies']} />,
    },
    {
      accessor: 'systems',
      title: 'Systems',
      render: (r) => (
        <CondensedList
          items={[...new Set(blocks(r).flatMap((b) => systemNames(b.systemAccessIds, systems.data)))]}
          noun={['system', 'systems']}
        />
      ),
    },
    {
      accessor: 'requesterComments',
      title: 'Requester Comments',
      render: (r) => <CondensedText text={r.requesterComments} />,
    },
  ];

  return (
    <Stack gap="md">
      <Alert color="blue" variant="light">
        {MESSAGES.access.requestsNote}
      </Alert>
      <Title order={2}>Access Requests</Title>
      {requests.isError && (
        <LoadError text={MESSAGES.access.loadRequestsFailed} onRetry={() => void requests.refetch()} />
      )}
      <ClientDataTable<AccessModRequest>
        ariaLabel="Access requests"
        records={requests.data}
        fetching={requests.isPending}
        columns={columns}
        filterLabel="Filter access requests"
        filterText={filterText}
        sortValue={sortValue}
        initialSort={{ columnAccessor: 'sysdat', direction: 'desc' }}
      />
    </Stack>
  );
}

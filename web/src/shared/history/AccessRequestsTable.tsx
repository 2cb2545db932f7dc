import { REQUEST_STATUS_LABELS, REQUEST_TYPE_LABELS, type AccessModRequest, type System } from '@portal/contract';
import type { DataTableColumn } from 'mantine-datatable';
import { useCallback } from 'react';
import { CondensedList } from '../CondensedList';
import { ClientDataTable } from '../DataTable';
import { StatusBadge } from '../StatusBadge';
import { CondensedText, DateTimeCell } from '../TableCells';
import { formatDateTime, joinOrMissing, orMissing, sitesText } from '../format';
import { systemNames, useSystems } from '../referenceData';

/** The cells of one access request row, as text (the filter and the sort read them). */
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
 * The access requests of a Requests History (000 §2 User detail / Profile, 001 §2.9): newest first, a filter
 * box, '---' for missing values; the reviewer's comments only when `showReviewerComments` (hidden on one's
 * own history). Status second as a badge, long lists and comments condensed (issue 9: no sideways scroll).
 */
export function AccessRequestsTable({
  records,
  fetching,
  showReviewerComments,
}: {
  records: AccessModRequest[] | undefined;
  fetching: boolean;
  showReviewerComments: boolean;
}) {
  const systems = useSystems();
  const filterText = useCallback(
    (r: AccessModRequest) =>
      Object.entries(cells(r, systems.data))
        .filter(([key]) => showReviewerComments || key !== 'reviewerComments')
        .map(([, value]) => value)
        .join(' '),
    [systems.data, showReviewerComments],
  );
  const sortValue = useCallback(
    (r: AccessModRequest, key: string) =>
      key === 'sysdat' ? r.sysdat : cells(r, systems.data)[key as keyof ReturnType<typeof cells>],
    [systems.data],
  );
  const text = (key: keyof ReturnType<typeof cells>) => (r: AccessModRequest) => cells(r, systems.data)[key];
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
      render: (r) => <CondensedList items={r.accessControls.map((b) => b.roleName)} noun={['role', 'roles']} />,
    },
    {
      accessor: 'sites',
      title: 'LAOs / AOs',
      render: (r) => (
        <CondensedList
          items={r.accessControls.flatMap((b) => [...(b.laoIds ?? []), ...(b.siteCodes ?? [])])}
          noun={['site', 'sites']}
        />
      ),
    },
    {
      accessor: 'studies',
      title: 'Study(s)',
      render: (r) => (
        <CondensedList items={r.accessControls.flatMap((b) => b.studyNames)} noun={['study', 'studies']} />
      ),
    },
    {
      accessor: 'systems',
      title: 'Systems',
      render: (r) => (
        <CondensedList
          items={[...new Set(r.accessControls.flatMap((b) => systemNames(b.systemAccessIds, systems.data)))]}
          noun={['system', 'systems']}
        />
      ),
    },
    {
      accessor: 'requesterComments',
      title: 'Requester Comments',
      render: (r) => <CondensedText text={r.requesterComments} />,
    },
    ...(showReviewerComments
      ? [
          {
            accessor: 'reviewerComments',
            title: 'Reviewer Comments',
            render: (r: AccessModRequest) => <CondensedText text={r.reviewerComments} />,
          },
        ]
      : []),
  ];
  return (
    <ClientDataTable<AccessModRequest>
      ariaLabel="Access requests"
      records={records}
      fetching={fetching}
      columns={columns}
      filterLabel="Filter access requests"
      filterText={filterText}
      sortValue={sortValue}
      initialSort={{ columnAccessor: 'sysdat', direction: 'desc' }}
    />
  );
}

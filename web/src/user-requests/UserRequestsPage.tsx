import { Alert, Anchor, Group, Select, Stack, TextInput, Title } from '@mantine/core';
import {
  CONSTANTS,
  MESSAGES,
  REQUEST_STATUSES,
  REQUEST_STATUS_LABELS,
  REQUEST_TYPE_LABELS,
  USER_REQUEST_TYPE_LABELS,
  type UserRequestRow,
} from '@portal/contract';
import type { DataTableSortStatus } from 'mantine-datatable';
import { Link, useNavigate } from 'react-router-dom';
import { paths } from '../lib/paths';
import { ServerDataTable } from '../shared/DataTable';
import { LoadError } from '../shared/ErrorAlert';
import { orMissing } from '../shared/format';
import { StatusBadge } from '../shared/StatusBadge';
import { DateTimeCell, BoundedText } from '../shared/TableCells';
import { pageFromUrl, urlPaging, useUrlFilter, useUrlView } from '../shared/urlView';
import { usePageTitle } from '../shared/usePageTitle';
import { useUserRequests } from './api/getUserRequests';

const STATUS_OPTIONS = [
  { value: 'pending', label: 'Pending' },
  { value: 'all', label: 'All' },
  ...REQUEST_STATUSES.map((s) => ({ value: s, label: REQUEST_STATUS_LABELS[s] })),
];
const DEFAULT_SIZE = CONSTANTS.usersDefaultPageSize;
const DEFAULT_SORT: DataTableSortStatus<UserRequestRow> = { columnAccessor: 'dateSubmitted', direction: 'desc' };

/** The review screen of a row: Review Pending User (001 §2.4), the profile change's (§2.10), the access change's. */
const reviewPath = (row: Pick<UserRequestRow, 'id' | 'userRequestType'>) =>
  row.userRequestType === 'REGISTRATION'
    ? paths.app.registrationReview.href(row.id)
    : row.userRequestType === 'PROFILE_CHANGE'
      ? paths.app.profileChangeReview.href(row.id)
      : paths.app.accessChangeReview.href(row.id);
/** A registration or a profile change (requestType null) reads its kind; an access change its request type. */
const typeLabel = (row: UserRequestRow) =>
  row.userRequestType !== 'ACCESS_CHANGE'
    ? USER_REQUEST_TYPE_LABELS[row.userRequestType]
    : row.requestType
      ? REQUEST_TYPE_LABELS[row.requestType]
      : orMissing(row.userRequestType);

/**
 * User Requests /app/user-requests (000 §2 Routes, §7 user_requests; 001 §2.3): the reviewers' queue,
 * paged, sorted and filtered on the server. Status, page, size, sort and filter live in the URL so that
 * Back returns to the same view; the optional `message` query is shown as an alert.
 */
export function UserRequestsPage() {
  usePageTitle('User Requests');
  const navigate = useNavigate();
  const { search, update } = useUrlView();
  const status = STATUS_OPTIONS.some((o) => o.value === search.get('status')) ? search.get('status')! : 'pending';
  const { page, size } = pageFromUrl(search, DEFAULT_SIZE);
  const [sortField, sortDir] = (search.get('sort') ?? '').split(',');
  const sortStatus: DataTableSortStatus<UserRequestRow> = sortField
    ? { columnAccessor: sortField, direction: sortDir === 'asc' ? 'asc' : 'desc' }
    : DEFAULT_SORT;
  const message = search.get('message');

  const [filter, setFilter] = useUrlFilter(search, update);

  const params = {
    status,
    page,
    size,
    sort: `${String(sortStatus.columnAccessor)},${sortStatus.direction}`,
    filter: search.get('filter') ?? '',
  };
  const rows = useUserRequests(params);

  return (
    <Stack gap="md">
      <Title order={1}>User Requests</Title>
      {message && (
        <Alert
          color="blue"
          withCloseButton
          closeButtonLabel="Dismiss message"
          onClose={() => update({ message: null })}
        >
          {message}
        </Alert>
      )}
      <Group align="flex-end" wrap="wrap">
        <Select
          label="Request status"
          data={STATUS_OPTIONS}
          value={status}
          onChange={(v) => update({ status: v === 'pending' ? null : v, page: null })}
          allowDeselect={false}
          w={220}
        />
        <TextInput
          label="Filter user requests"
          placeholder="Name, email, organization, ticket…"
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
          w={320}
          maxLength={256}
        />
      </Group>
      {rows.isError && <LoadError text={MESSAGES.access.loadUserRequestsFailed} onRetry={() => void rows.refetch()} />}
      <ServerDataTable<UserRequestRow>
        ariaLabel="User requests"
        {...urlPaging(rows.data, { page, size }, update, DEFAULT_SIZE)}
        fetching={rows.isFetching}
        sortStatus={sortStatus}
        onSortStatusChange={(s) => update({ sort: `${String(s.columnAccessor)},${s.direction}`, page: null })}
        onRowClick={(row) => navigate(reviewPath(row))}
        compact
        // Status first-class (second, a badge as in the Requests History; a registration's own statuses too),
        // dates breaking before their time, long names and addresses cut with the whole text on hover (issue 9).
        columns={[
          {
            accessor: 'dateSubmitted',
            title: 'Date Submitted',
            sortable: true,
            render: (r) => (
              <Anchor component={Link} to={reviewPath(r)} onClick={(e) => e.stopPropagation()} size="sm">
                <DateTimeCell value={r.dateSubmitted} />
              </Anchor>
            ),
          },
          {
            accessor: 'requestStatus',
            title: 'Status',
            sortable: true,
            render: (r) => <StatusBadge status={r.requestStatus} />,
          },
          { accessor: 'requestType', title: 'Request Type', sortable: true, render: typeLabel },
          { accessor: 'firstName', title: 'First Name', sortable: true },
          { accessor: 'lastName', title: 'Last Name', sortable: true },
          {
            accessor: 'email',
            title: 'Email',
            sortable: true,
            render: (r) => <BoundedText text={r.email} maw="10rem" />,
          },
          {
            accessor: 'organizationName',
            title: 'Organization',
            sortable: true,
            render: (r) => <BoundedText text={r.organizationName} maw="7.5rem" />,
          },
          {
            accessor: 'sysaidTicket',
            title: 'External Ticket #',
            sortable: true,
            render: (r) => orMissing(r.sysaidTicket),
          },
          {
            accessor: 'lastModified',
            title: 'Last Modified',
            sortable: true,
            render: (r) => <DateTimeCell value={r.lastModified} />,
          },
          {
            accessor: 'lastModifiedBy',
            title: 'Last Modified By',
            sortable: true,
            render: (r) => <BoundedText text={r.lastModifiedBy} maw="8rem" />,
          },
        ]}
      />
    </Stack>
  );
}

import { Anchor, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import {
  DASHBOARD_MESSAGES,
  REQUEST_TYPE_LABELS,
  USER_REQUEST_TYPE_LABELS,
  type DashboardRequest,
} from '@portal/contract';
import { Link } from 'react-router-dom';
import { paths } from '../lib/paths';
import { OpenStageLine } from '../shared/approval/StagesPanel';
import { ClientDataTable } from '../shared/DataTable';
import { LoadError } from '../shared/ErrorAlert';
import { StatusBadge } from '../shared/StatusBadge';
import { DateTimeCell } from '../shared/TableCells';
import { useDashboardRequests } from './api/getDashboardRequests';

/** 'New Access' for an access-change request, otherwise the kind's label. */
const requestLabel = (r: DashboardRequest) =>
  r.userRequestType === 'ACCESS_CHANGE' && r.requestType
    ? REQUEST_TYPE_LABELS[r.requestType]
    : USER_REQUEST_TYPE_LABELS[r.userRequestType];

function RequestsTable({
  label,
  records,
  dateTitle,
  dateOf,
}: {
  label: string;
  records: DashboardRequest[];
  dateTitle: string;
  dateOf: 'dateSubmitted' | 'lastModified';
}) {
  return (
    <ClientDataTable<DashboardRequest & { key: string }>
      ariaLabel={label}
      records={records.map((r) => ({ ...r, key: `${r.userRequestType}:${r.id}` }))}
      idAccessor="key"
      initialSort={{ columnAccessor: dateOf, direction: 'desc' }}
      sortValue={(r, key) => (key === 'request' ? requestLabel(r) : (r as unknown as Record<string, unknown>)[key])}
      columns={[
        { accessor: dateOf, title: dateTitle, sortable: true, render: (r) => <DateTimeCell value={r[dateOf]} /> },
        {
          accessor: 'requestStatus',
          title: 'Status',
          // The open approval stage under the status, never in its place (as the Requests History).
          render: (r) => (
            <>
              <StatusBadge status={r.requestStatus} />
              <OpenStageLine stage={r.openStage} />
            </>
          ),
        },
        { accessor: 'request', title: 'Request', sortable: true, render: requestLabel },
        { accessor: 'subjectName', title: 'For', sortable: true },
      ]}
    />
  );
}

/**
 * For requesters (USER, 000 §6 "dashboard access"): the requests they filed or that are about them that User
 * Support has not resolved yet, and the latest decisions, with the way to the history and to a new request.
 */
export function MyRequestsSection() {
  const requests = useDashboardRequests(true);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="dashboard-requests-heading">
      <Stack gap="md">
        <Group justify="space-between" align="baseline">
          <Title order={2} id="dashboard-requests-heading">
            My requests
          </Title>
          <Anchor component={Link} to={paths.app.profile.href('history')} size="sm">
            View my requests history
          </Anchor>
        </Group>
        {requests.isError ? (
          <LoadError text={DASHBOARD_MESSAGES.loadRequestsFailed} onRetry={() => void requests.refetch()} />
        ) : requests.isPending ? (
          <Skeleton height={120} />
        ) : (
          <>
            <Text>
              <Text component="span" fz={28} fw={700} data-testid="open-requests-count">
                {requests.data.open.length}
              </Text>{' '}
              open {requests.data.open.length === 1 ? 'request' : 'requests'} not resolved by User Support yet.
            </Text>
            {requests.data.open.length > 0 && (
              <RequestsTable
                label="My open requests"
                records={requests.data.open}
                dateTitle="Date Submitted"
                dateOf="dateSubmitted"
              />
            )}
            <Title order={3} size="h4">
              Latest decisions
            </Title>
            {requests.data.decisions.length ? (
              <RequestsTable
                label="Latest decisions on my requests"
                records={requests.data.decisions}
                dateTitle="Decided"
                dateOf="lastModified"
              />
            ) : (
              <Text size="sm">No request of yours has been decided yet.</Text>
            )}
          </>
        )}
        <Group>
          <Button component={Link} to={paths.app.profile.href('access')} variant="light">
            Request Access Change
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

import { Anchor, Badge, Stack, Text, Title } from '@mantine/core';
import {
  APPROVAL_TEXTS,
  APPROVER_GROUP_LABELS,
  CONSTANTS,
  REQUEST_TYPE_LABELS,
  type AwaitingApprovalRow,
} from '@portal/contract';
import { Link, useNavigate } from 'react-router-dom';
import { paths } from '../../lib/paths';
import { StageDeadline } from '../../shared/approval/StagesPanel';
import { ServerDataTable } from '../../shared/DataTable';
import { LoadError } from '../../shared/ErrorAlert';
import { BoundedText, DateTimeCell } from '../../shared/TableCells';
import { pageFromUrl, urlPaging, useUrlView } from '../../shared/urlView';
import { usePageTitle } from '../../shared/usePageTitle';
import { useAwaitingApproval } from './api';

const DEFAULT_SIZE = CONSTANTS.usersDefaultPageSize;
/** The API answers the rows by deadline, soonest first; the table shows that order. */
const SORT = { columnAccessor: 'deadlineAt', direction: 'asc' } as const;

/**
 * 'Awaiting my approval' /app/approvals (approval policies): the requests whose open stage the signed-in user
 * may decide (LAO staff of its LAOs, a named approver of its studies, User Support once escalated), paged on
 * the server with the page in the URL; a row opens the stage decision page.
 */
export function AwaitingApprovalPage() {
  usePageTitle(APPROVAL_TEXTS.awaitingTitle);
  const navigate = useNavigate();
  const { search, update } = useUrlView();
  const view = pageFromUrl(search, DEFAULT_SIZE);
  const rows = useAwaitingApproval(view);
  const empty = rows.data?.totalElements === 0;
  return (
    <Stack gap="md">
      <Title order={1}>{APPROVAL_TEXTS.awaitingTitle}</Title>
      {rows.isError && (
        <LoadError text="Problem loading the requests awaiting your approval." onRetry={() => void rows.refetch()} />
      )}
      {empty ? (
        <Text role="status">{APPROVAL_TEXTS.awaitingEmpty}</Text>
      ) : (
        <ServerDataTable<AwaitingApprovalRow>
          ariaLabel="Requests awaiting my approval"
          {...urlPaging(rows.data, view, update, DEFAULT_SIZE)}
          fetching={rows.isFetching}
          sortStatus={SORT}
          onSortStatusChange={() => undefined}
          onRowClick={(row) => void navigate(paths.app.approvals.one.href(row.id))}
          columns={[
            {
              accessor: 'name',
              title: 'Name',
              // The link is the row's keyboard way in; the click stays with it (the row would open it again).
              render: (r) => (
                <Anchor
                  component={Link}
                  to={paths.app.approvals.one.href(r.id)}
                  onClick={(e) => e.stopPropagation()}
                  size="sm"
                >
                  {r.firstName} {r.lastName}
                </Anchor>
              ),
            },
            { accessor: 'email', title: 'Email', render: (r) => <BoundedText text={r.email} /> },
            { accessor: 'roleNames', title: 'Study Role(s)', render: (r) => r.roleNames.join(', ') },
            { accessor: 'requestType', title: 'Request Type', render: (r) => REQUEST_TYPE_LABELS[r.requestType] },
            { accessor: 'stage', title: 'Stage', render: (r) => APPROVAL_TEXTS.stageOf(r.stage, r.stages) },
            {
              accessor: 'group',
              title: 'Group',
              render: (r) => (
                <>
                  {APPROVER_GROUP_LABELS[r.group]}
                  {r.escalated && (
                    <Badge color="orange" variant="light" size="sm" tt="none" ml={6}>
                      Escalated
                    </Badge>
                  )}
                </>
              ),
            },
            {
              accessor: 'deadlineAt',
              title: 'Deadline',
              render: (r) => <StageDeadline deadlineAt={r.deadlineAt} open />,
            },
            {
              accessor: 'dateSubmitted',
              title: 'Date Submitted',
              render: (r) => <DateTimeCell value={r.dateSubmitted} />,
            },
          ]}
        />
      )}
    </Stack>
  );
}

import { Anchor } from '@mantine/core';
import { ACCESS_REVIEW_MESSAGES, type AccessReviewCampaign } from '@portal/contract';
import { Link } from 'react-router-dom';
import { paths } from '../../lib/paths';
import { ServerDataTable } from '../../shared/DataTable';
import { LoadError } from '../../shared/ErrorAlert';
import { DateTimeCell } from '../../shared/TableCells';
import { pageFromUrl, urlPaging, useUrlView } from '../../shared/urlView';
import { useCampaigns } from '../api/campaigns';
import { CampaignStatusBadge, TemporalLink } from './parts';

const DEFAULT_SIZE = 25;

/**
 * The campaigns, newest first, server-paged (page and size in the URL): name (opening the campaign), status,
 * created, deadline, decided / undecided / to remove, and the workflow in the Temporal UI.
 */
export function CampaignsTab() {
  const { search, update } = useUrlView();
  const view = pageFromUrl(search, DEFAULT_SIZE);
  const campaigns = useCampaigns(view);
  return (
    <>
      {campaigns.isError && (
        <LoadError text={ACCESS_REVIEW_MESSAGES.loadCampaigns} onRetry={() => void campaigns.refetch()} />
      )}
      <ServerDataTable<AccessReviewCampaign>
        ariaLabel="Access review campaigns"
        {...urlPaging(campaigns.data, view, update, DEFAULT_SIZE)}
        fetching={campaigns.isFetching}
        sortStatus={{ columnAccessor: 'sysdat', direction: 'desc' }}
        onSortStatusChange={() => {}}
        compact
        columns={[
          {
            accessor: 'name',
            title: 'Name',
            render: (c) => (
              <Anchor component={Link} to={paths.app.accessReviewCampaigns.one.href(c.id)} size="sm">
                {c.name}
              </Anchor>
            ),
          },
          { accessor: 'status', title: 'Status', render: (c) => <CampaignStatusBadge status={c.status} /> },
          { accessor: 'sysdat', title: 'Created', render: (c) => <DateTimeCell value={c.sysdat} /> },
          { accessor: 'deadline', title: 'Deadline', render: (c) => <DateTimeCell value={c.deadline} /> },
          { accessor: 'decided', title: 'Decided' },
          { accessor: 'undecided', title: 'Undecided' },
          { accessor: 'toRemove', title: 'To Remove' },
          {
            accessor: 'workflowUrl',
            title: 'Workflow',
            render: (c) => <TemporalLink url={c.workflowUrl} label="Temporal UI" of={c.name} />,
          },
        ]}
      />
    </>
  );
}

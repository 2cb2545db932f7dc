import { Anchor, Stack } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useHasPermissions } from '../lib/sessionQueries';
import { ClientDataTable, type ClientDataTableProps } from '../shared/DataTable';
import { LoadError } from '../shared/ErrorAlert';
import { useConfigList } from './api/getConfigList';
import type { ConfigRecord, ConfigResource } from './api/resources';
import { ListToolbar, StatusBadge } from './ListToolbar';

/** What a tab gives its table as it is: its name, filter, first sort, sort values and own columns. */
type TableProps<R> = Pick<
  ClientDataTableProps<R>,
  'ariaLabel' | 'filterLabel' | 'filterText' | 'initialSort' | 'sortValue' | 'columns'
>;

/**
 * One Configure tab (001 §2.12: portal roles, study roles, systems): the create button (ADMIN only) and the
 * 'Show inactive (deleted)' switch, the list's load failure with a retry, and the resource's records (active
 * only unless the switch is on) in a filterable, sortable table whose rows open the record's page; the tab's
 * own columns come first, then Status.
 */
export function ConfigListTab<R extends ConfigRecord>({
  resource,
  href,
  createLabel,
  loadFailed,
  ...table
}: TableProps<R> & {
  resource: ConfigResource<R, unknown>;
  /** The page of a record, or of a new one. */
  href: (id: number | 'new') => string;
  createLabel: string;
  /** The spec's 'Problem loading ...' text of the list. */
  loadFailed: string;
}) {
  const navigate = useNavigate();
  const list = useConfigList(resource);
  const canAdmin = useHasPermissions('ADMIN');
  const [showInactive, setShowInactive] = useState(false);
  const records = (list.data ?? []).filter((r) => showInactive || !r.inactive);
  return (
    <Stack gap="sm">
      <ListToolbar
        createLabel={createLabel}
        createTo={href('new')}
        canCreate={canAdmin}
        showInactive={showInactive}
        onShowInactive={setShowInactive}
      />
      {list.isError && <LoadError text={loadFailed} onRetry={() => void list.refetch()} />}
      <ClientDataTable<R>
        {...table}
        records={list.data ? records : undefined}
        fetching={list.isFetching && !list.data}
        onRowClick={(r) => navigate(href(r.id))}
        columns={[
          ...table.columns,
          {
            accessor: 'inactive',
            title: 'Status',
            sortable: true,
            render: (r) => <StatusBadge inactive={r.inactive} />,
          },
        ]}
      />
    </Stack>
  );
}

/** A record's name as the link to its page; the click stays with the link (the row would open it again). */
export function RecordLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Anchor component={Link} to={to} onClick={(e) => e.stopPropagation()} size="sm">
      {children}
    </Anchor>
  );
}

/** The sort value of a list ordered by the records' sort number, then by name. */
export const bySortThenName = (sort: number, name: string) => `${String(sort).padStart(6, '0')} ${name}`;

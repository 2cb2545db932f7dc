import { Anchor, Stack } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useHasPermissions } from '../lib/sessionQueries';
import { ClientDataTable, type ClientDataTableProps } from '../shared/DataTable';
import { LoadError } from '../shared/ErrorAlert';
import { useConfigList } from './api/getConfigList';
import type { ConfigRecord, ConfigResource } from './api/resources';
import { ListToolbar, StatusBadge } from './ListToolbar';

/** What a tab gives its table as it is: its filter, sort values and own columns. */
type TableProps<R> = Pick<ClientDataTableProps<R>, 'filterText' | 'sortValue' | 'columns'>;

/** A tab's words (001 §2.12): the create button, the table's name, the filter box's label, the load failure. */
export interface ConfigListTexts {
  create: string;
  table: string;
  filter: string;
  loadFailed: string;
}

/** The lists open sorted by their sort number (then name) unless the tab says otherwise. */
const BY_SORT = { columnAccessor: 'sort', direction: 'asc' } as const;

/**
 * One Configure tab (001 §2.12: portal roles, study roles, systems): the create button (ADMIN only) and the
 * 'Show inactive (deleted)' switch, the list's load failure with a retry, and the resource's records (active
 * only unless the switch is on) in a filterable, sortable table whose rows open the record's page; the tab's
 * own columns come first, then Status.
 */
export function ConfigListTab<R extends ConfigRecord>({
  kind,
  texts,
  initialSort = BY_SORT,
  ...table
}: TableProps<R> & {
  /** The kind's resource and the address of a record's page (or a new one's). */
  kind: { resource: ConfigResource<R, unknown>; href: (id: number | 'new') => string };
  texts: ConfigListTexts;
  initialSort?: ClientDataTableProps<R>['initialSort'];
}) {
  const { href } = kind;
  const navigate = useNavigate();
  const list = useConfigList(kind.resource);
  const canAdmin = useHasPermissions('ADMIN');
  const [showInactive, setShowInactive] = useState(false);
  const records = (list.data ?? []).filter((r) => showInactive || !r.inactive);
  return (
    <Stack gap="sm">
      <ListToolbar
        createLabel={texts.create}
        createTo={href('new')}
        canCreate={canAdmin}
        showInactive={showInactive}
        onShowInactive={setShowInactive}
      />
      {list.isError && <LoadError text={texts.loadFailed} onRetry={() => void list.refetch()} />}
      <ClientDataTable<R>
        {...table}
        ariaLabel={texts.table}
        filterLabel={texts.filter}
        initialSort={initialSort}
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

import { Stack } from '@mantine/core';
import { DASHBOARD_RESOURCE_MESSAGES as M, type DashboardItem } from '@portal/contract';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../lib/paths';
import { ClientDataTable } from '../../shared/DataTable';
import { LoadError } from '../../shared/ErrorAlert';
import { ITEM_KIND_LABELS } from '../../shared/resources/ResourceCard';
import { useConfigList } from '../api/getConfigList';
import { portalRoleResource } from '../api/resources';
import { RecordLink } from '../ConfigListTab';
import { ListToolbar, StatusBadge } from '../ListToolbar';
import { useDashboardItems } from './api/getDashboardItems';
import { useResourceCategories } from './api/getResourceCategories';
import { categoryPath } from './categoryTree';

/** An item with the names its row shows and sorts by. */
type Row = DashboardItem & { categoryName: string; roleNames: string; kindLabel: string };

/**
 * 'Dashboard Items' (issue 23 Screens; ADMIN): every dashboard item in a paginated, filterable, sortable table
 * (Title, Kind, Category, Portal Roles, Order, Status; active only unless 'Show inactive'); 'Create Dashboard
 * Item' and each row open the editor.
 */
export function ItemsTab() {
  const navigate = useNavigate();
  const items = useDashboardItems();
  const categories = useResourceCategories();
  const roles = useConfigList(portalRoleResource);
  const [showInactive, setShowInactive] = useState(false);
  const rows = useMemo<Row[] | undefined>(() => {
    if (!items.data) return undefined;
    const roleName = new Map((roles.data ?? []).map((r) => [r.id, r.description]));
    return items.data
      .filter((i) => showInactive || i.active)
      .map((i) => ({
        ...i,
        kindLabel: ITEM_KIND_LABELS[i.kind],
        categoryName: categoryPath(categories.data ?? [], i.categoryId) || String(i.categoryId),
        roleNames: i.portalRoleIds.map((id) => roleName.get(id) ?? `#${id}`).join(', '),
      }));
  }, [items.data, categories.data, roles.data, showInactive]);

  return (
    <Stack gap="sm">
      <ListToolbar
        createLabel="Create Dashboard Item"
        createTo={paths.app.configure.dashboardItem.href('new')}
        canCreate
        showInactive={showInactive}
        onShowInactive={setShowInactive}
      />
      {items.isError && <LoadError text={M.loadItems} onRetry={() => void items.refetch()} />}
      <ClientDataTable<Row>
        ariaLabel="Dashboard items"
        filterLabel="Filter dashboard items"
        filterText={(r) => `${r.title} ${r.kindLabel} ${r.categoryName} ${r.roleNames}`}
        initialSort={{ columnAccessor: 'categoryName', direction: 'asc' }}
        records={rows}
        fetching={items.isFetching && !items.data}
        onRowClick={(r) => void navigate(paths.app.configure.dashboardItem.href(r.id))}
        columns={[
          {
            accessor: 'title',
            title: 'Title',
            sortable: true,
            render: (r) => <RecordLink to={paths.app.configure.dashboardItem.href(r.id)}>{r.title}</RecordLink>,
          },
          { accessor: 'kindLabel', title: 'Kind', sortable: true },
          { accessor: 'categoryName', title: 'Category', sortable: true },
          { accessor: 'roleNames', title: 'Portal Roles', sortable: true },
          { accessor: 'order', title: 'Order', sortable: true },
          {
            accessor: 'active',
            title: 'Status',
            sortable: true,
            render: (r) => <StatusBadge inactive={!r.active} />,
          },
        ]}
      />
    </Stack>
  );
}

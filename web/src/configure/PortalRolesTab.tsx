import { Anchor, Stack } from '@mantine/core';
import { CONFIG_MESSAGES, type PortalRole } from '@portal/contract';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { paths } from '../lib/paths';
import { useHasPermissions } from '../lib/sessionQueries';
import { ClientDataTable } from '../shared/DataTable';
import { LoadError } from '../shared/ErrorAlert';
import { useConfigList } from './api/getConfigList';
import { portalRoleResource } from './api/resources';
import { ListToolbar, StatusBadge } from './ListToolbar';

/** 001 §3: permissions are displayed comma-joined (permissionsForDisplay). */
const permissionsForDisplay = (r: PortalRole) => r.permissions.join(', ');

/** Portal roles tab (001 §2.12): 'Create Portal Role', filter 'Filter portal roles', Role Name and Permissions. */
export function PortalRolesTab() {
  const navigate = useNavigate();
  const roles = useConfigList(portalRoleResource);
  const canAdmin = useHasPermissions('ADMIN');
  const [showInactive, setShowInactive] = useState(false);
  const records = (roles.data ?? []).filter((r) => showInactive || !r.inactive);
  return (
    <Stack gap="sm">
      <ListToolbar
        createLabel="Create Portal Role"
        createTo={paths.app.configure.portalRole.href('new')}
        canCreate={canAdmin}
        showInactive={showInactive}
        onShowInactive={setShowInactive}
      />
      {roles.isError && <LoadError text={CONFIG_MESSAGES.portalRoles.loadAll} onRetry={() => void roles.refetch()} />}
      <ClientDataTable<PortalRole>
        ariaLabel="Portal roles"
        records={roles.data ? records : undefined}
        fetching={roles.isFetching && !roles.data}
        filterLabel="Filter portal roles"
        filterText={(r) => `${r.description} ${permissionsForDisplay(r)}`}
        initialSort={{ columnAccessor: 'description', direction: 'asc' }}
        sortValue={(r, key) => (key === 'permissions' ? permissionsForDisplay(r) : r[key as keyof PortalRole])}
        onRowClick={(r) => navigate(paths.app.configure.portalRole.href(r.id))}
        columns={[
          {
            accessor: 'description',
            title: 'Role Name',
            sortable: true,
            render: (r) => (
              <Anchor
                component={Link}
                to={paths.app.configure.portalRole.href(r.id)}
                onClick={(e) => e.stopPropagation()}
                size="sm"
              >
                {r.description}
              </Anchor>
            ),
          },
          { accessor: 'permissions', title: 'Permissions', sortable: true, render: permissionsForDisplay },
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

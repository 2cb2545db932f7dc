import { Anchor, Stack } from '@mantine/core';
import { CONFIG_MESSAGES, type StudyRoleListItem } from '@portal/contract';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { paths } from '../lib/paths';
import { useHasPermissions } from '../lib/sessionQueries';
import { ClientDataTable } from '../shared/DataTable';
import { LoadError } from '../shared/ErrorAlert';
import { useConfigList } from './api/getConfigList';
import { studyRoleResource } from './api/resources';
import { ListToolbar, StatusBadge } from './ListToolbar';

const yesNo = (v: boolean) => (v ? 'Yes' : 'No');
const applications = (r: StudyRoleListItem) => r.defaultApplicationNames.join(', ');

/** Study roles tab (001 §2.12): filter, 'Create New Study Role', the role and its defaultApplicationNames. */
export function StudyRolesTab() {
  const navigate = useNavigate();
  const roles = useConfigList(studyRoleResource);
  const canAdmin = useHasPermissions('ADMIN');
  const [showInactive, setShowInactive] = useState(false);
  const records = (roles.data ?? []).filter((r) => showInactive || !r.inactive);
  return (
    <Stack gap="sm">
      <ListToolbar
        createLabel="Create New Study Role"
        createTo={paths.app.configure.studyRole.href('new')}
        canCreate={canAdmin}
        showInactive={showInactive}
        onShowInactive={setShowInactive}
      />
      {roles.isError && <LoadError text={CONFIG_MESSAGES.studyRoles.loadAll} onRetry={() => void roles.refetch()} />}
      <ClientDataTable<StudyRoleListItem>
        ariaLabel="Study roles"
        records={roles.data ? records : undefined}
        fetching={roles.isFetching && !roles.data}
        filterLabel="Filter study roles"
        filterText={(r) => `${r.roleName} ${r.description} ${applications(r)}`}
        initialSort={{ columnAccessor: 'sort', direction: 'asc' }}
        sortValue={(r, key) =>
          key === 'defaultApplicationNames'
            ? applications(r)
            : key === 'sort'
              ? `${String(r.sort).padStart(6, '0')} ${r.roleName}`
              : r[key as keyof StudyRoleListItem]
        }
        onRowClick={(r) => navigate(paths.app.configure.studyRole.href(r.id))}
        columns={[
          {
            accessor: 'roleName',
            title: 'Study Role',
            sortable: true,
            render: (r) => (
              <Anchor
                component={Link}
                to={paths.app.configure.studyRole.href(r.id)}
                onClick={(e) => e.stopPropagation()}
                size="sm"
              >
                {r.roleName}
              </Anchor>
            ),
          },
          { accessor: 'description', title: 'Description' },
          { accessor: 'defaultApplicationNames', title: 'Default Applications', sortable: true, render: applications },
          {
            accessor: 'siteRequired',
            title: 'AOs/LAOs Required',
            sortable: true,
            render: (r) => yesNo(r.siteRequired),
          },
          {
            accessor: 'studyRequired',
            title: 'Studies Required',
            sortable: true,
            render: (r) => yesNo(r.studyRequired),
          },
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

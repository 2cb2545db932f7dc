import { Anchor, Badge, Group, Stack } from '@mantine/core';
import { CONFIG_MESSAGES, type SystemDetail } from '@portal/contract';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { paths } from '../lib/paths';
import { useHasPermissions } from '../lib/sessionQueries';
import { ClientDataTable } from '../shared/DataTable';
import { LoadError } from '../shared/ErrorAlert';
import { orMissing } from '../shared/format';
import { useConfigList } from './api/getConfigList';
import { systemResource } from './api/resources';
import { ListToolbar, StatusBadge } from './ListToolbar';

/** Systems tab /app/configure/?tab=systems (001 §2.12): 'Create New System', a filter, System Name and Description. */
export function SystemsTab() {
  const navigate = useNavigate();
  const systems = useConfigList(systemResource);
  const canAdmin = useHasPermissions('ADMIN');
  const [showInactive, setShowInactive] = useState(false);
  const records = (systems.data ?? []).filter((s) => showInactive || !s.inactive);
  return (
    <Stack gap="sm">
      <ListToolbar
        createLabel="Create New System"
        createTo={paths.app.configure.system.href('new')}
        canCreate={canAdmin}
        showInactive={showInactive}
        onShowInactive={setShowInactive}
      />
      {systems.isError && <LoadError text={CONFIG_MESSAGES.systems.loadAll} onRetry={() => void systems.refetch()} />}
      <ClientDataTable<SystemDetail>
        ariaLabel="Systems"
        records={systems.data ? records : undefined}
        fetching={systems.isFetching && !systems.data}
        filterLabel="Filter systems"
        filterText={(s) => `${s.systemName} ${s.description}`}
        initialSort={{ columnAccessor: 'sort', direction: 'asc' }}
        sortValue={(s, key) =>
          key === 'sort' ? `${String(s.sort).padStart(6, '0')} ${s.systemName}` : s[key as keyof SystemDetail]
        }
        onRowClick={(s) => navigate(paths.app.configure.system.href(s.id))}
        columns={[
          {
            accessor: 'systemName',
            title: 'System Name',
            sortable: true,
            render: (s) => (
              <Group gap="xs">
                <Anchor
                  component={Link}
                  to={paths.app.configure.system.href(s.id)}
                  onClick={(e) => e.stopPropagation()}
                  size="sm"
                >
                  {s.systemName}
                </Anchor>
                {s.fixed && (
                  <Badge size="xs" variant="outline">
                    Fixed
                  </Badge>
                )}
              </Group>
            ),
          },
          { accessor: 'description', title: 'Description', sortable: true, render: (s) => orMissing(s.description) },
          {
            accessor: 'inactive',
            title: 'Status',
            sortable: true,
            render: (s) => <StatusBadge inactive={s.inactive} />,
          },
        ]}
      />
    </Stack>
  );
}

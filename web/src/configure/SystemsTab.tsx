import { Badge, Group } from '@mantine/core';
import { CONFIG_MESSAGES, type SystemDetail } from '@portal/contract';
import { paths } from '../lib/paths';
import { orMissing } from '../shared/format';
import { systemResource } from './api/resources';
import { bySortThenName, ConfigListTab, RecordLink } from './ConfigListTab';

/** Systems tab /app/configure/?tab=systems (001 §2.12): 'Create New System', a filter, System Name and Description. */
export function SystemsTab() {
  return (
    <ConfigListTab<SystemDetail>
      resource={systemResource}
      href={paths.app.configure.system.href}
      createLabel="Create New System"
      loadFailed={CONFIG_MESSAGES.systems.loadAll}
      ariaLabel="Systems"
      filterLabel="Filter systems"
      filterText={(s) => `${s.systemName} ${s.description}`}
      initialSort={{ columnAccessor: 'sort', direction: 'asc' }}
      sortValue={(s, key) => (key === 'sort' ? bySortThenName(s.sort, s.systemName) : s[key as keyof SystemDetail])}
      columns={[
        {
          accessor: 'systemName',
          title: 'System Name',
          sortable: true,
          render: (s) => (
            <Group gap="xs">
              <RecordLink to={paths.app.configure.system.href(s.id)}>{s.systemName}</RecordLink>
              {s.fixed && (
                <Badge size="xs" variant="outline">
                  Fixed
                </Badge>
              )}
            </Group>
          ),
        },
        { accessor: 'description', title: 'Description', sortable: true, render: (s) => orMissing(s.description) },
      ]}
    />
  );
}

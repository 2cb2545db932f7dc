import { Badge, Group } from '@mantine/core';
import { CONFIG_MESSAGES, type SystemDetail } from '@portal/contract';
import { paths } from '../lib/paths';
import { orMissing } from '../shared/format';
import { bySortThenName, ConfigListTab, RecordLink, type ConfigListTexts } from './ConfigListTab';
import { systemKind } from './kinds/system';

const TEXTS: ConfigListTexts = {
  create: 'Create New System',
  table: 'Systems',
  filter: 'Filter systems',
  loadFailed: CONFIG_MESSAGES.systems.loadAll,
};

/** Systems tab /app/configure/?tab=systems (001 §2.12): 'Create New System', a filter, System Name and Description. */
export function SystemsTab() {
  return (
    <ConfigListTab<SystemDetail>
      kind={systemKind}
      texts={TEXTS}
      filterText={(s) => `${s.systemName} ${s.description}`}
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

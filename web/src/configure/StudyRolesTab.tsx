import { CONFIG_MESSAGES, type StudyRoleListItem } from '@portal/contract';
import { paths } from '../lib/paths';
import { studyRoleResource } from './api/resources';
import { bySortThenName, ConfigListTab, RecordLink } from './ConfigListTab';

const yesNo = (v: boolean) => (v ? 'Yes' : 'No');
const applications = (r: StudyRoleListItem) => r.defaultApplicationNames.join(', ');

/** Study roles tab (001 §2.12): filter, 'Create New Study Role', the role and its defaultApplicationNames. */
export function StudyRolesTab() {
  return (
    <ConfigListTab<StudyRoleListItem>
      resource={studyRoleResource}
      href={paths.app.configure.studyRole.href}
      createLabel="Create New Study Role"
      loadFailed={CONFIG_MESSAGES.studyRoles.loadAll}
      ariaLabel="Study roles"
      filterLabel="Filter study roles"
      filterText={(r) => `${r.roleName} ${r.description} ${applications(r)}`}
      initialSort={{ columnAccessor: 'sort', direction: 'asc' }}
      sortValue={(r, key) =>
        key === 'defaultApplicationNames'
          ? applications(r)
          : key === 'sort'
            ? bySortThenName(r.sort, r.roleName)
            : r[key as keyof StudyRoleListItem]
      }
      columns={[
        {
          accessor: 'roleName',
          title: 'Study Role',
          sortable: true,
          render: (r) => <RecordLink to={paths.app.configure.studyRole.href(r.id)}>{r.roleName}</RecordLink>,
        },
        { accessor: 'description', title: 'Description' },
        { accessor: 'defaultApplicationNames', title: 'Default Applications', sortable: true, render: applications },
        { accessor: 'siteRequired', title: 'AOs/LAOs Required', sortable: true, render: (r) => yesNo(r.siteRequired) },
        { accessor: 'studyRequired', title: 'Studies Required', sortable: true, render: (r) => yesNo(r.studyRequired) },
      ]}
    />
  );
}

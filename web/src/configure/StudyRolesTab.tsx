import { CONFIG_MESSAGES, type StudyRoleListItem } from '@portal/contract';
import { paths } from '../lib/paths';
import { bySortThenName, ConfigListTab, RecordLink, type ConfigListTexts } from './ConfigListTab';
import { studyRoleKind } from './kinds/studyRole';

const yesNo = (v: boolean) => (v ? 'Yes' : 'No');
const applications = (r: StudyRoleListItem) => r.defaultApplicationNames.join(', ');

const TEXTS: ConfigListTexts = {
  create: 'Create New Study Role',
  table: 'Study roles',
  filter: 'Filter study roles',
  loadFailed: CONFIG_MESSAGES.studyRoles.loadAll,
};

/** Study roles tab (001 §2.12): filter, 'Create New Study Role', the role and its defaultApplicationNames. */
export function StudyRolesTab() {
  return (
    <ConfigListTab<StudyRoleListItem>
      kind={studyRoleKind}
      texts={TEXTS}
      filterText={(r) => `${r.roleName} ${r.description} ${applications(r)}`}
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

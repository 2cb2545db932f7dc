import { CONFIG_MESSAGES, type PortalRole } from '@portal/contract';
import { paths } from '../lib/paths';
import { ConfigListTab, RecordLink, type ConfigListTexts } from './ConfigListTab';
import { portalRoleKind } from './kinds/portalRole';

/** 001 §3: permissions are displayed comma-joined (permissionsForDisplay). */
const permissionsForDisplay = (r: PortalRole) => r.permissions.join(', ');

const TEXTS: ConfigListTexts = {
  create: 'Create Portal Role',
  table: 'Portal roles',
  filter: 'Filter portal roles',
  loadFailed: CONFIG_MESSAGES.portalRoles.loadAll,
};

/** Portal roles tab (001 §2.12): 'Create Portal Role', filter 'Filter portal roles', Role Name and Permissions. */
export function PortalRolesTab() {
  return (
    <ConfigListTab<PortalRole>
      kind={portalRoleKind}
      texts={TEXTS}
      filterText={(r) => `${r.description} ${permissionsForDisplay(r)}`}
      initialSort={{ columnAccessor: 'description', direction: 'asc' }}
      sortValue={(r, key) => (key === 'permissions' ? permissionsForDisplay(r) : r[key as keyof PortalRole])}
      columns={[
        {
          accessor: 'description',
          title: 'Role Name',
          sortable: true,
          render: (r) => <RecordLink to={paths.app.configure.portalRole.href(r.id)}>{r.description}</RecordLink>,
        },
        { accessor: 'permissions', title: 'Permissions', sortable: true, render: permissionsForDisplay },
      ]}
    />
  );
}

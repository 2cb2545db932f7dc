import { Stack, Text } from '@mantine/core';
import type { UserAccess, UserDetail } from '@portal/contract';
import { ClientDataTable } from '../shared/DataTable';
import { joinOrMissing, sitesText } from '../shared/format';
import { systemNames, useSystems } from '../shared/referenceData';

/**
 * Access tab (000 §2 User detail), read-only for now: the user's active access records by study role. The
 * admin's repeatable role blocks saved with PUT user_access/user/{portalUserId} come with the access issue.
 */
export function AccessTab({ user }: { user: UserDetail }) {
  const systems = useSystems();
  return (
    <Stack gap="md">
      <Text c="dimmed" size="sm">
        The access {user.firstName} {user.lastName} holds, by study role.
      </Text>
      <ClientDataTable<UserAccess>
        ariaLabel={`Access of ${user.firstName} ${user.lastName}`}
        records={user.userAccesses}
        fetching={false}
        initialSort={{ columnAccessor: 'roleName', direction: 'asc' }}
        sortValue={(r, key) => (key === 'sites' ? sitesText(r) : (r as unknown as Record<string, unknown>)[key])}
        columns={[
          { accessor: 'roleName', title: 'Study Role', sortable: true },
          { accessor: 'sites', title: 'LAOs / AOs', sortable: true, render: (r) => sitesText(r) },
          { accessor: 'studyNames', title: 'Study(s)', render: (r) => joinOrMissing(r.studyNames) },
          {
            accessor: 'systemAccessIds',
            title: 'Systems / Applications',
            render: (r) => joinOrMissing(systemNames(r.systemAccessIds, systems.data)),
          },
        ]}
      />
    </Stack>
  );
}

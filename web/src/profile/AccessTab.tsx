import { Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { MESSAGES, type Profile, type UserAccess } from '@portal/contract';
import { Link, useNavigate } from 'react-router-dom';
import { paths } from '../lib/paths';
import { useOwnAccess, useOwnRequests } from '../lib/sessionQueries';
import { AccessEnd } from '../shared/AccessEnd';
import { AccessHistorySection } from '../shared/AccessProvenance';
import { ClientDataTable } from '../shared/DataTable';
import { LoadError } from '../shared/ErrorAlert';
import { MyApplications } from '../shared/MyApplications';
import { joinOrMissing, sitesText } from '../shared/format';
import { usePendingRoleNames } from '../shared/pendingRoles';
import { systemNames, useSystems } from '../shared/referenceData';

const updateAccessUrl = (userId: number, existingUserAccessId: number) =>
  paths.app.requestAccess.href({ type: 'UPDATE', userId, existingUserAccessId });
const newAccessUrl = (userId: number, roleNamesInUse: readonly string[]) =>
  paths.app.requestAccess.href({ type: 'NEW', userId, roleNamesInUse });

/**
 * Profile Access tab (000 §2 Profile screen): the user's access by study role, each row a modify request; each
 * record's History (issue 25 'Why does this person have this access'); then 'My applications', the held systems
 * with single sign-on (issue 22 Launch).
 */
export function AccessTab({ profile }: { profile: Profile }) {
  const navigate = useNavigate();
  const access = useOwnAccess();
  const systems = useSystems();
  const requests = useOwnRequests();
  const pendingRoles = usePendingRoleNames(requests.data);
  const roleNames = (access.data ?? []).map((a) => a.roleName);

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Text c="dimmed" size="sm" maw={640}>
          Your current access by study role. Choose a study role to request a change or removal of that access.
        </Text>
        <Button component={Link} to={newAccessUrl(profile.portalUserId, roleNames)} disabled={!access.data}>
          Request New Access
        </Button>
      </Group>
      {access.isError && <LoadError text={MESSAGES.access.loadAccessFailed} onRetry={() => void access.refetch()} />}
      <ClientDataTable<UserAccess>
        ariaLabel="Your access"
        records={access.data}
        fetching={access.isPending}
        initialSort={{ columnAccessor: 'roleName', direction: 'asc' }}
        onRowClick={(r) => navigate(updateAccessUrl(profile.portalUserId, r.id))}
        sortValue={(r, key) => (key === 'sites' ? sitesText(r) : (r as unknown as Record<string, unknown>)[key])}
        columns={[
          {
            accessor: 'roleName',
            title: 'Study Role',
            sortable: true,
            render: (r) => (
              <Group gap="xs" wrap="nowrap">
                <Anchor
                  component={Link}
                  to={updateAccessUrl(profile.portalUserId, r.id)}
                  onClick={(e) => e.stopPropagation()}
                >
                  {r.roleName}
                </Anchor>
                {pendingRoles.has(r.roleName) && (
                  <Badge size="xs" color="yellow" variant="light">
                    Request outstanding
                  </Badge>
                )}
              </Group>
            ),
          },
          { accessor: 'sites', title: 'LAOs / AOs', sortable: true, render: (r) => sitesText(r) },
          { accessor: 'studyNames', title: 'Study(s)', render: (r) => joinOrMissing(r.studyNames) },
          {
            accessor: 'systemAccessIds',
            title: 'Systems / Applications',
            render: (r) => joinOrMissing(systemNames(r.systemAccessIds, systems.data)),
          },
          {
            accessor: 'accessEndDate',
            title: 'Access Ends',
            sortable: true,
            render: (r) => <AccessEnd date={r.accessEndDate} soon={r.accessEndsSoon} />,
          },
        ]}
      />
      <AccessHistorySection
        portalUserId={profile.portalUserId}
        records={access.data ?? []}
        headingId="profile-access-history-heading"
      />
      <MyApplications headingId="profile-applications-heading" />
    </Stack>
  );
}

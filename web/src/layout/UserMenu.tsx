import { Button, Menu, Skeleton } from '@mantine/core';
import { Link } from 'react-router-dom';
import { paths } from '../lib/paths';
import { useCanChangePassword, useProfile } from '../lib/sessionQueries';

/** The top bar's user menu showing first and last name (000 §2 Layouts). */
export function UserMenu() {
  const profile = useProfile();
  const canChangePassword = useCanChangePassword('ever');
  if (!profile.data)
    return <Skeleton height={28} width={140} radius="sm" role="status" aria-label="Loading your name" />;
  const name = `${profile.data.firstName} ${profile.data.lastName}`.trim();
  return (
    <Menu position="bottom-end" withArrow shadow="md">
      <Menu.Target>
        <Button
          variant="subtle"
          color="gray"
          rightSection={<span aria-hidden>▾</span>}
          data-testid="user-menu"
          maw={{ base: 160, sm: 320 }}
          // On a phone a long name wraps onto a second line within the bar instead of losing its end to an
          // ellipsis (which also took most of it once a reader widened the text spacing, WCAG 1.4.12).
          styles={{
            root: { height: 'auto', minHeight: 36, paddingBlock: 2 },
            inner: { height: 'auto' },
            label: { height: 'auto', overflow: 'visible', whiteSpace: 'normal', lineHeight: 1.2 },
          }}
        >
          <span style={{ overflowWrap: 'anywhere', textAlign: 'start' }}>{name}</span>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to={paths.app.profile.href()}>
          Profile
        </Menu.Item>
        {canChangePassword.data === true && (
          <Menu.Item component={Link} to={paths.app.changePassword.href}>
            Change Password
          </Menu.Item>
        )}
        <Menu.Divider />
        <Menu.Item component={Link} to={paths.app.signOut.href} color="red">
          Sign Out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

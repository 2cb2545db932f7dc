import { Anchor, AppShell, Burger, Group, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useEffect } from 'react';
import { MESSAGES } from '@portal/contract';
import { Link, Navigate, Outlet, ScrollRestoration, useLocation, useNavigate } from 'react-router-dom';
import { getXsrfToken } from '../lib/apiClient';
import { getAuthState, updateAuthState, useAuthState } from '../lib/authState';
import { SITE_TITLE } from '../lib/config';
import { paths } from '../lib/paths';
import { pendingSignOut, signInUrl } from '../lib/session';
import { useCanChangePassword, usePermissions } from '../lib/sessionQueries';
import { InactivityModal } from '../shared/InactivityModal';
import { Footer } from './Footer';
import { Navigation } from './Navigation';
import classes from './SecureLayout.module.css';
import { UserMenu } from './UserMenu';

/**
 * Secure layout for /app/* (000 §2 Layouts): top bar with the brand and the user menu, side navigation that
 * collapses below 768 px ('Hide Sidebar' / 'Show Sidebar'; closed, it is hidden, not only moved off the screen, so
 * Tab never lands on its links), a skip-to-content link and a footer. It removes
 * the query parameter redirectedFrom=/app from the address. It runs the inactivity countdown (000 §4
 * Session timeout) and, while the password must be changed (FORCE_CHANGE), allows nothing but
 * /change-password (000 §4 Password expiry).
 */
export function SecureLayout() {
  const location = useLocation();
  const auth = useAuthState();
  // Without a token from sign-in there is no session to check: sign out with 'Please sign in' (000 §4),
  // unless a sign-out is already under way (e.g. for inactivity): then follow it with its own message.
  if (!getXsrfToken()) {
    return <Navigate to={pendingSignOut() ?? signInUrl(MESSAGES.signIn.pleaseSignIn, location)} replace />;
  }
  if (auth?.passwordExpiryState === 'FORCE_CHANGE') {
    const params = new URLSearchParams({ username: auth.username ?? '', skipRefresh: 'true' });
    return <Navigate to={paths.changePassword.href(params)} replace />;
  }
  return <SecureShell />;
}

function SecureShell() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const permissions = usePermissions();
  const canChangePassword = useCanChangePassword('ever');

  // A session from before the auth state was kept still gets a countdown (000 §9 default timeout).
  useEffect(() => {
    if (!getAuthState()) updateAuthState({});
  }, []);
  const location = useLocation();
  const navigate = useNavigate();

  useEffect(() => {
    const params = new URLSearchParams(location.search);
    if (params.get('redirectedFrom') !== paths.app.root.href) return;
    params.delete('redirectedFrom');
    const qs = params.toString();
    navigate({ pathname: location.pathname, search: qs ? `?${qs}` : '' }, { replace: true });
  }, [location.pathname, location.search, navigate]);

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <InactivityModal />
      {/* A new page opens at its top (the history after a long request form, not scrolled past its title). */}
      <ScrollRestoration />
      <a href="#main-content" className={classes.skipLink}>
        Skip to main content
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={opened ? 'Hide Sidebar' : 'Show Sidebar'}
              title={opened ? 'Hide Sidebar' : 'Show Sidebar'}
            />
            <Anchor component={Link} to={paths.app.dashboard.href} underline="never" c="blue.8">
              <Text fw={700} fz={{ base: 'md', sm: 'lg' }} component="span" style={{ whiteSpace: 'nowrap' }}>
                {SITE_TITLE}
              </Text>
            </Anchor>
          </Group>
          <UserMenu />
        </Group>
      </AppShell.Header>
      <AppShell.Navbar
        p="sm"
        aria-label="Sidebar"
        className={opened ? classes.navbar : `${classes.navbar} ${classes.navClosed}`}
      >
        <Navigation
          permissions={permissions.data ?? []}
          canChangePassword={canChangePassword.data === true}
          onNavigate={close}
        />
      </AppShell.Navbar>
      <AppShell.Main id="main-content" tabIndex={-1} className={classes.main}>
        <div className={classes.content}>
          <Outlet />
        </div>
        <Footer />
      </AppShell.Main>
    </AppShell>
  );
}

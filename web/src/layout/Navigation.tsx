import { NavLink, Stack, Text, VisuallyHidden } from '@mantine/core';
import { hasAllPermissions, type Permission } from '@portal/contract';
import { Link, useLocation } from 'react-router-dom';
import { USER_MANUAL_URL } from '../lib/config';
import { useMyAccessReviews } from '../lib/myAccessReviews';
import { paths } from '../lib/paths';
import { useProfile } from '../lib/sessionQueries';

interface NavItem {
  label: string;
  to: string;
  isActive: (pathname: string, tab: string | null) => boolean;
  permission?: Permission;
}

const { app } = paths;

/** Side navigation entries (000 §2 Routes). Only pages that exist are listed. */
const MAIN_ITEMS: NavItem[] = [
  { label: 'Dashboard', to: app.dashboard.href, isActive: (p) => p === app.dashboard.path },
  { label: 'Profile', to: app.profile.href(), isActive: (p, tab) => p === app.profile.path && tab !== 'access' },
  {
    label: 'Request Access Change',
    to: app.profile.href('access'),
    isActive: (p, tab) => (p === app.profile.path && tab === 'access') || p.startsWith(app.requestAccess.path),
  },
  // 000 §2 Routes, 001 §2.2: any signed-in user may request an account for someone else.
  { label: 'Request a User', to: app.proxyRegistration.href, isActive: (p) => p === app.proxyRegistration.path },
  // Approval policies: any signed-in user may be a stage approver (LAO staff hold no reviewer permission).
  { label: 'Awaiting my approval', to: app.approvals.href, isActive: (p) => p.startsWith(app.approvals.path) },
  // 000 §2 Routes: Reports is outside the Administration heading; the report itself needs READ_USERS (001 §6).
  { label: 'Reports', to: app.reports.href, isActive: (p) => p === app.reports.path },
];

/** 000 §2 Routes: only when the profile has canSubmitProxyAccessChangeRequests.canSubmit and is not loading. */
const PROXY_ACCESS_CHANGE: NavItem = {
  label: 'Request Access Change for Others',
  to: app.proxyAccessChange.href(),
  isActive: (p) => p === app.proxyAccessChange.path,
};

/** Issue 25: only when GET access_review/mine says the user reviews (LAO staff of an LAO, User Support). */
const ACCESS_REVIEWS: NavItem = {
  label: 'Access Reviews',
  to: app.accessReviews.href(),
  isActive: (p) => p === app.accessReviews.path,
};

/** Under the 'Administration' heading, shown to users with READ_USERS, in 000 §2's order (Routes table). */
const ADMIN_ITEMS: NavItem[] = [
  {
    label: 'User Requests',
    to: app.userRequests.href,
    isActive: (p) => p.startsWith(app.userRequests.path),
    permission: 'READ_USERS',
  },
  { label: 'Users', to: app.users.href, isActive: (p) => p.startsWith(app.users.path), permission: 'READ_USERS' },
  {
    label: 'Configure',
    to: `${app.configure.path}/`,
    isActive: (p) => p.startsWith(app.configure.path),
    permission: 'READ_USERS',
  },
  // Issue 25: access review campaigns and recurring reviews, ADMIN only.
  {
    label: 'Access Review Campaigns',
    to: app.accessReviewCampaigns.href(),
    isActive: (p) => p.startsWith(app.accessReviewCampaigns.path),
    permission: 'ADMIN',
  },
  {
    label: 'Audit Trail',
    to: app.auditTrail.href(),
    isActive: (p) => p.startsWith(app.auditTrail.path) && !p.startsWith(app.auditTrail.integrity.path),
    permission: 'READ_USERS',
  },
  // The sealed trail's verification, ADMIN only.
  {
    label: 'Audit Integrity',
    to: app.auditTrail.integrity.href,
    isActive: (p) => p.startsWith(app.auditTrail.integrity.path),
    permission: 'ADMIN',
  },
];

/** 000 §2 Routes: shown only when the 'ever' password-change check is true. */
const CHANGE_PASSWORD: NavItem = {
  label: 'Change Password',
  to: app.changePassword.href,
  isActive: (p) => p === app.changePassword.path,
};

export function Navigation({
  permissions,
  canChangePassword = false,
  onNavigate,
}: {
  permissions: readonly string[];
  canChangePassword?: boolean;
  onNavigate: () => void;
}) {
  const { pathname, search } = useLocation();
  const tab = new URLSearchParams(search).get('tab');
  const visible = (item: NavItem) => !item.permission || hasAllPermissions(permissions, [item.permission]);
  const admin = ADMIN_ITEMS.filter(visible);
  const profile = useProfile();
  const proxy = !profile.isLoading && profile.data?.canSubmitProxyAccessChangeRequests.canSubmit === true;
  const reviewer = useMyAccessReviews().data?.reviewer === true;

  const render = (item: NavItem) => {
    const active = item.isActive(pathname, tab);
    return (
      <NavLink
        key={item.to}
        component={Link}
        to={item.to}
        label={item.label}
        active={active}
        aria-current={active ? 'page' : undefined}
        onClick={onNavigate}
        variant="light"
      />
    );
  };

  return (
    <Stack component="nav" aria-label="Main navigation" gap={2}>
      {MAIN_ITEMS.filter(visible).map(render)}
      {proxy && render(PROXY_ACCESS_CHANGE)}
      {reviewer && render(ACCESS_REVIEWS)}
      {canChangePassword && render(CHANGE_PASSWORD)}
      {hasAllPermissions(permissions, ['READ_USERS']) && admin.length > 0 && (
        <>
          <Text component="h2" size="xs" fw={700} tt="uppercase" c="dimmed" mt="md" mb={4} px="sm">
            Administration
          </Text>
          {admin.map(render)}
        </>
      )}
      {/* 000 §2 Routes: an external link (USER_MANUAL_URL), so a new tab and no active state. */}
      <NavLink
        component="a"
        href={USER_MANUAL_URL}
        target="_blank"
        rel="noopener noreferrer"
        label={
          <>
            User Manual (PDF)
            <VisuallyHidden> (opens in a new tab)</VisuallyHidden>
          </>
        }
        mt="md"
        onClick={onNavigate}
        variant="light"
      />
    </Stack>
  );
}

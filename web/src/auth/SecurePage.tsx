import { hasAllPermissions, MESSAGES, type Permission } from '@portal/contract';
import type { ReactNode } from 'react';
import { ApiError } from '../lib/apiClient';
import { paths } from '../lib/paths';
import { usePermissions } from '../lib/sessionQueries';
import { LoadError } from '../shared/ErrorAlert';
import { PageLoader } from '../shared/PageLoader';
import { StatusPage } from '../shared/StatusPage';

export type SecurePageState = 'loading' | 'auth' | 'denied';

/**
 * A secure page's state (000 §4 Secure page): loading while the granted permissions load (a 401 there signs
 * the user out with 'Please sign in'); then auth when no permission is required or the user holds all of
 * them, otherwise denied.
 */
export function useSecurePageState(required: readonly Permission[] = []) {
  const permissions = usePermissions();
  let state: SecurePageState = 'loading';
  if (permissions.data) state = hasAllPermissions(permissions.data, required) ? 'auth' : 'denied';
  else if (permissions.error instanceof ApiError && permissions.error.status === 403) state = 'denied';
  return { state, permissions };
}

/** The denied state (000 §4 Secure page): the spec's text under a heading, and the way to the dashboard. */
export function Denied() {
  return (
    <StatusPage
      title="Not Authorized"
      text={MESSAGES.signIn.notAuthorized}
      onward={{ label: 'Go to the dashboard', to: paths.app.dashboard.href }}
      testId="page-denied"
    />
  );
}

/** Renders its page only in the auth state. */
export function SecurePage({ permission, children }: { permission?: Permission | Permission[]; children: ReactNode }) {
  const required = permission ? (Array.isArray(permission) ? permission : [permission]) : [];
  const { state, permissions } = useSecurePageState(required);
  if (state === 'denied') return <Denied />;
  if (state === 'auth') return <>{children}</>;
  if (permissions.error && !(permissions.error instanceof ApiError && permissions.error.status === 401)) {
    return <LoadError text={permissions.error.message} onRetry={() => void permissions.refetch()} />;
  }
  return <PageLoader />;
}

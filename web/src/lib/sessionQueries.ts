import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  hasAllPermissions,
  type AccessModRequest,
  type MyApplication,
  type Permission,
  type Profile,
  type UserAccess,
} from '@portal/contract';
import { apiGet } from './apiClient';

/**
 * The signed-in user's own data (000 §3 Permissions, §7): granted permissions, profile, active access, own
 * requests and the password-change capabilities. Every feature reads them, so they live here rather than in
 * a feature; all keys start with 'session', which sign-in and sign-out clear.
 */

const URLS = {
  permissions: '/rest/secure/user_capabilities/granted_permissions',
  profile: '/rest/secure/user_profile',
  ownAccess: '/rest/secure/user_access/user',
  ownRequests: '/rest/secure/user_access_mod_request/user',
  myApplications: '/rest/secure/my_applications',
  canChangePassword: (which: 'ever' | 'now') => `/rest/secure/user_capabilities/can_change_password_${which}`,
} as const;

export const sessionKeys = {
  all: ['session'] as const,
  permissions: ['session', 'permissions'] as const,
  profile: ['session', 'profile'] as const,
  ownAccess: ['session', 'ownAccess'] as const,
  ownRequests: ['session', 'ownRequests'] as const,
  myApplications: ['session', 'myApplications'] as const,
  canChangePassword: (which: 'ever' | 'now') => ['session', 'canChangePassword', which] as const,
};

/** GET granted_permissions: the secure page's authentication check (000 §4). */
export const permissionsQueryOptions = () =>
  queryOptions({
    queryKey: sessionKeys.permissions,
    queryFn: ({ signal }) => apiGet<Permission[]>(URLS.permissions, undefined, signal),
    staleTime: 60_000,
  });

/** The granted permissions, cached for a minute. */
export function usePermissions() {
  return useQuery(permissionsQueryOptions());
}

/** True once the granted permissions are loaded and include every one of `required`. */
export function useHasPermissions(...required: Permission[]): boolean {
  return hasAllPermissions(usePermissions().data ?? [], required);
}

/** GET /rest/secure/user_profile. */
export function useProfile() {
  return useQuery({
    queryKey: sessionKeys.profile,
    queryFn: ({ signal }) => apiGet<Profile>(URLS.profile, undefined, signal),
    staleTime: 60_000,
  });
}

/** GET /rest/secure/user_access/user: the signed-in user's active access records (read from content). */
export function useOwnAccess() {
  return useQuery({
    queryKey: sessionKeys.ownAccess,
    queryFn: async ({ signal }) => (await apiGet<{ content: UserAccess[] }>(URLS.ownAccess, undefined, signal)).content,
  });
}

/** GET /rest/secure/user_access_mod_request/user: the signed-in user's own access requests (read from content). */
export function useOwnRequests(enabled = true) {
  return useQuery({
    queryKey: sessionKeys.ownRequests,
    queryFn: async ({ signal }) =>
      (await apiGet<{ content: AccessModRequest[] }>(URLS.ownRequests, undefined, signal)).content,
    enabled,
  });
}

/** GET /rest/secure/my_applications: the held systems with single sign-on (issue 22 Launch), for a minute. */
export function useMyApplications() {
  return useQuery({
    queryKey: sessionKeys.myApplications,
    queryFn: ({ signal }) => apiGet<MyApplication[]>(URLS.myApplications, undefined, signal),
    staleTime: 60_000,
  });
}

/** GET can_change_password_{ever|now} (000 §3 Permissions, §7): 'ever' shows the menu entries. */
export function useCanChangePassword(which: 'ever' | 'now', enabled = true) {
  return useQuery({
    queryKey: sessionKeys.canChangePassword(which),
    queryFn: ({ signal }) => apiGet<boolean>(URLS.canChangePassword(which), undefined, signal),
    staleTime: which === 'ever' ? 5 * 60_000 : 0,
    enabled,
  });
}

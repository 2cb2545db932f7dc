import { useQuery } from '@tanstack/react-query';
import type { AccessModRequest, Permission, Profile, UserAccess } from '@portal/contract';
import { apiGet } from './api';

/** Query keys and hooks for the signed-in user's data (000 §7). */
export const queryKeys = {
  permissions: ['session', 'permissions'] as const,
  profile: ['session', 'profile'] as const,
  ownAccess: ['session', 'ownAccess'] as const,
  ownRequests: ['session', 'ownRequests'] as const,
  userRequests: (params: Record<string, unknown>) => ['userRequests', params] as const,
  pendingCount: ['userRequests', 'pendingCount'] as const,
  accessModRequest: (id: number) => ['accessModRequest', id] as const,
};

/** GET /rest/secure/user_capabilities/granted_permissions: the secure page's authentication check (000 §4). */
export function usePermissions() {
  return useQuery({
    queryKey: queryKeys.permissions,
    queryFn: ({ signal }) =>
      apiGet<Permission[]>('/rest/secure/user_capabilities/granted_permissions', undefined, signal),
    staleTime: 60_000,
  });
}

/** GET /rest/secure/user_profile. */
export function useProfile() {
  return useQuery({
    queryKey: queryKeys.profile,
    queryFn: ({ signal }) => apiGet<Profile>('/rest/secure/user_profile', undefined, signal),
    staleTime: 60_000,
  });
}

/** GET /rest/secure/user_access/user: the signed-in user's active access records (read from content). */
export function useOwnAccess() {
  return useQuery({
    queryKey: queryKeys.ownAccess,
    queryFn: async ({ signal }) =>
      (await apiGet<{ content: UserAccess[] }>('/rest/secure/user_access/user', undefined, signal)).content,
  });
}

/** GET /rest/secure/user_access_mod_request/user: the signed-in user's own access requests (read from content). */
export function useOwnRequests() {
  return useQuery({
    queryKey: queryKeys.ownRequests,
    queryFn: async ({ signal }) =>
      (await apiGet<{ content: AccessModRequest[] }>('/rest/secure/user_access_mod_request/user', undefined, signal))
        .content,
  });
}

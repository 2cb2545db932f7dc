import type { PortalRole } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/apiClient';

/** GET /rest/secure/user_management/portal_roles (001 §7): the portal roles a reviewer may grant. */
export const getAssignablePortalRoles = (signal?: AbortSignal) =>
  apiGet<PortalRole[]>('/rest/secure/user_management/portal_roles', undefined, signal);

export const assignablePortalRolesQueryOptions = () =>
  queryOptions({
    queryKey: ['assignablePortalRoles'] as const,
    // 001 §7: only active roles are kept.
    queryFn: async ({ signal }) => (await getAssignablePortalRoles(signal)).filter((r) => !r.inactive),
    staleTime: 60_000,
  });

export function useAssignablePortalRoles() {
  return useQuery(assignablePortalRolesQueryOptions());
}

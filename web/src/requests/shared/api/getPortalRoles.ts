import { type PortalRole, REGISTRATION_MESSAGES } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/apiClient';

/** GET /rest/secure/user_management/portal_roles (001 §7): the portal roles a reviewer may grant. */
export const getAssignablePortalRoles = (signal?: AbortSignal) =>
  apiGet<PortalRole[]>('/rest/secure/user_management/portal_roles', undefined, signal);

export const assignablePortalRolesQueryOptions = () =>
  queryOptions({
    queryKey: ['assignablePortalRoles'] as const,
    // 001 §7: only active roles are kept.
    queryFn: async ({ signal }) => {
      try {
        return (await getAssignablePortalRoles(signal)).filter((r) => !r.inactive);
      } catch (err) {
        // 001 §8: only logged; the screen says the roles could not load.
        console.error(REGISTRATION_MESSAGES.loadPortalRolesFailed, err);
        throw err;
      }
    },
    staleTime: 60_000,
  });

export function useAssignablePortalRoles() {
  return useQuery(assignablePortalRolesQueryOptions());
}

import type { PortalRole } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/apiClient';
import { userKeys } from './userKeys';

/**
 * GET /rest/secure/user_management/portal_roles (000 §7): the active portal roles with their descriptions
 * and permissions, for the Account tab's checkbox list.
 */
export const getPortalRoles = (signal?: AbortSignal) =>
  apiGet<PortalRole[]>('/rest/secure/user_management/portal_roles', undefined, signal);

export const portalRolesQueryOptions = () =>
  queryOptions({ queryKey: userKeys.portalRoles, queryFn: ({ signal }) => getPortalRoles(signal) });

export const usePortalRoles = () => useQuery(portalRolesQueryOptions());

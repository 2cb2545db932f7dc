import { REQUEST_STATUSES, type AccessModRequest, type Page, type RequestStatus } from '@portal/contract';
import { useQueries } from '@tanstack/react-query';
import { apiGet } from '../../lib/apiClient';

/**
 * GET /rest/secure/user_access_mod_request/status/{status} (001 §7, READ_USERS), one page of one row: the
 * screen needs only `totalElements`. A failure is shown with 'Problem loading "{status}" user-access
 * modification request(s).' (001 §8).
 */
export const getRequestsByStatus = (status: RequestStatus, signal?: AbortSignal) =>
  apiGet<Page<AccessModRequest>>(`/rest/secure/user_access_mod_request/status/${status}`, { page: 1, size: 1 }, signal);

export const requestsByStatusKey = (status: RequestStatus) => ['access-mod-requests', 'status', status] as const;

/** The number of requests in every status (001 §4), one call per status. */
export function useRequestCountsByStatus(enabled: boolean) {
  return useQueries({
    queries: REQUEST_STATUSES.map((status) => ({
      queryKey: requestsByStatusKey(status),
      queryFn: ({ signal }: { signal: AbortSignal }) => getRequestsByStatus(status, signal),
      enabled,
      select: (page: Page<AccessModRequest>) => page.totalElements,
    })),
  });
}

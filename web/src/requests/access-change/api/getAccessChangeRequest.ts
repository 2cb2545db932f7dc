import type { AccessModRequest } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/apiClient';
import { requestKeys } from '../../../lib/requestKeys';

/** GET /rest/secure/user_access_mod_request/{id} (000 §7): one access-change request with allowedNextStatuses. */
export const getAccessChangeRequest = (id: number, signal?: AbortSignal) =>
  apiGet<AccessModRequest>(`/rest/secure/user_access_mod_request/${id}`, undefined, signal);

export const accessChangeRequestQueryOptions = (id: number) =>
  queryOptions({
    queryKey: requestKeys.accessModRequest(id),
    queryFn: ({ signal }) => getAccessChangeRequest(id, signal),
  });

/** Nothing is loaded for an id that cannot exist. */
export function useAccessChangeRequest(id: number) {
  return useQuery({ ...accessChangeRequestQueryOptions(id), enabled: Number.isInteger(id) && id > 0 });
}

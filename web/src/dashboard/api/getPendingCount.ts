import type { Page, UserRequestRow } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/apiClient';
import { requestKeys } from '../../lib/requestKeys';

/** GET user_requests/pending with a page of one: the number of requests waiting for review (totalElements). */
export const getPendingCount = async (signal?: AbortSignal) =>
  (
    await apiGet<Page<UserRequestRow>>(
      '/rest/secure/user_management/user_requests/pending',
      { page: 1, size: 1 },
      signal,
    )
  ).totalElements;

export const pendingCountQueryOptions = () =>
  queryOptions({ queryKey: requestKeys.userRequests.pendingCount, queryFn: ({ signal }) => getPendingCount(signal) });

/** Loaded only for reviewers (READ_USERS). */
export function usePendingCount(enabled: boolean) {
  return useQuery({ ...pendingCountQueryOptions(), enabled });
}

import type { Page, UserRequestRow } from '@portal/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/apiClient';
import { requestKeys } from '../../lib/requestKeys';

/** The queue's view: the status filter ('pending', 'all' or one status), page (1-based), size, sort, filter. */
export interface UserRequestsParams {
  status: string;
  page: number;
  size: number;
  sort: string;
  filter: string;
}

/** GET /rest/secure/user_management/user_requests/{status} (000 §7; 001 §2.3): one page of the reviewers' queue. */
export const getUserRequests = ({ status, page, size, sort, filter }: UserRequestsParams, signal?: AbortSignal) =>
  apiGet<Page<UserRequestRow>>(
    `/rest/secure/user_management/user_requests/${encodeURIComponent(status)}`,
    { page, size, sort, filter: filter || undefined },
    signal,
  );

/** The previous page stays on screen while the next one loads. */
export const userRequestsQueryOptions = (params: UserRequestsParams) =>
  queryOptions({
    queryKey: requestKeys.userRequests.page({ ...params }),
    queryFn: ({ signal }) => getUserRequests(params, signal),
    placeholderData: keepPreviousData,
  });

/** One page of the queue for the view in the URL. */
export function useUserRequests(params: UserRequestsParams) {
  return useQuery(userRequestsQueryOptions(params));
}

import type { Page, UserListRow } from '@portal/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/apiClient';

/** The list's view: the tab (`inactive`), page (1-based), size, sort ('person.lastName,asc') and filter. */
export interface UsersListParams {
  inactive: boolean;
  page: number;
  size: number;
  sort: string;
  filter: string;
}

/**
 * Query keys of the Users list: `all` reaches every page, so a change to a user (save, activate, deactivate)
 * invalidates it without importing this screen's parameters.
 */
export const usersListKeys = {
  all: ['users', 'list'] as const,
  page: (params: UsersListParams) => ['users', 'list', { ...params }] as const,
};

/** GET /rest/secure/user_management/users (000 §7): one page of the Active or Inactive tab, OR-filtered. */
export const getUsers = ({ inactive, page, size, sort, filter }: UsersListParams, signal?: AbortSignal) =>
  apiGet<Page<UserListRow>>(
    '/rest/secure/user_management/users',
    {
      inactive: String(inactive),
      page,
      size,
      sort,
      filter: filter || undefined,
      filterType: filter ? 'OR' : undefined,
    },
    signal,
  );

/** The previous page stays on screen while the next one loads ('Searching' shows over it). */
export const usersQueryOptions = (params: UsersListParams) =>
  queryOptions({
    queryKey: usersListKeys.page(params),
    queryFn: ({ signal }) => getUsers(params, signal),
    placeholderData: keepPreviousData,
  });

/** One page of the Users list for the view in the URL. */
export function useUsers(params: UsersListParams) {
  return useQuery(usersQueryOptions(params));
}

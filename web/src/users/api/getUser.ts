import type { UserDetail } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/apiClient';
import { userKeys } from './userKeys';

/** GET /rest/secure/user_management/user/{id} (000 §7): the user for the detail screen. */
export const getUser = (id: number, signal?: AbortSignal) =>
  apiGet<UserDetail>(`/rest/secure/user_management/user/${id}`, undefined, signal);

export const userQueryOptions = (id: number) =>
  queryOptions({ queryKey: userKeys.detail(id), queryFn: ({ signal }) => getUser(id, signal) });

/** The user; a failed load stays failed (the screen says 'Unable to load the specified user'). */
export function useUser(id: number) {
  return useQuery({ ...userQueryOptions(id), retry: false });
}

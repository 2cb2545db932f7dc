import type { UserAccess, UserDetail } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/apiClient';

/**
 * What the access-change review shows of the requested user (001 §2.8): GET /rest/secure/user_management/user/{id}
 * (000 §7: their portal roles and current access) and, for CHANGE / REMOVAL, the access record the request was
 * filed against, GET /rest/secure/user_access/{id} (its original access).
 */
export const reviewSubjectKeys = {
  user: (id: number) => ['reviewSubject', id] as const,
  record: (id: number) => ['accessRecord', id] as const,
};

export const getReviewSubject = (id: number, signal?: AbortSignal) =>
  apiGet<UserDetail>(`/rest/secure/user_management/user/${id}`, undefined, signal);

export const getAccessRecord = (id: number, signal?: AbortSignal) =>
  apiGet<UserAccess>(`/rest/secure/user_access/${id}`, undefined, signal);

/**
 * The requested user. Fetched afresh when the screen opens and on 'Reload request', and only then: the form is built from it, so
 * a background refetch must not replace what the reviewer is editing. A save marks it stale for the next visit.
 */
export function useReviewSubject(id: number | undefined) {
  return useQuery({
    ...queryOptions({
      queryKey: reviewSubjectKeys.user(id ?? 0),
      queryFn: ({ signal }) => getReviewSubject(id!, signal),
    }),
    enabled: !!id,
    staleTime: Infinity,
    refetchOnMount: 'always',
    refetchOnReconnect: false,
  });
}

/** The original access record (stored versions never change, so it is kept). */
export function useAccessRecord(id: number | null | undefined) {
  return useQuery({
    queryKey: reviewSubjectKeys.record(id ?? 0),
    queryFn: ({ signal }) => getAccessRecord(id!, signal),
    enabled: !!id,
    staleTime: Infinity,
  });
}

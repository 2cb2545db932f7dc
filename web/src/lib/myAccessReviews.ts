import type { MyAccessReviews } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from './apiClient';

/**
 * GET /rest/secure/access_review/mine (issue 25 "Access review campaigns"): whether the signed-in user reviews
 * and their open campaigns with their counts. Here beside the session's queries because the navigation (its
 * 'Access Reviews' item) and the reviewer screen both read it; its key starts with the access review screens'
 * (['accessReviews']), so a decision or a campaign's end refreshes it with them.
 */
export const myAccessReviewsKey = ['accessReviews', 'mine'] as const;

export const getMyAccessReviews = (signal?: AbortSignal) =>
  apiGet<MyAccessReviews>('/rest/secure/access_review/mine', undefined, signal);

/** The caller's reviewer status and open campaigns, kept a minute (the navigation asks on every page). */
export function useMyAccessReviews() {
  return useQuery({
    queryKey: myAccessReviewsKey,
    queryFn: ({ signal }) => getMyAccessReviews(signal),
    staleTime: 60_000,
  });
}

import {
  type AccessReviewDecisionBody,
  type AccessReviewDecisionResult,
  type AccessReviewItem,
  type AccessReviewItemsQuery,
  type Page,
} from '@portal/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../lib/apiClient';
import type { MutationConfig } from '../../lib/reactQuery';
import { reviewKeys } from './reviewKeys';

/**
 * The reviewer's calls (issue 25 "Access review campaigns"; routes in contract/src/access-reviews.ts):
 * whether the caller reviews and their open campaigns (lib/myAccessReviews.ts), one page of their items, and a
 * decision (by ids or by filter) answered with one result per item.
 */
const BASE = '/rest/secure/access_review';

/** GET .../mine lives in lib: the navigation reads it too. */
export { useMyAccessReviews } from '../../lib/myAccessReviews';

/** The view of the items table: campaign, page (1-based), size, filter text and state. */
export type ItemsView = Required<Pick<AccessReviewItemsQuery, 'page' | 'size' | 'state'>> & {
  campaignId: number;
  filter: string;
};

/** GET .../items: one page of the caller's items of a campaign, by person (last name, first name). */
export const getReviewItems = (view: ItemsView, signal?: AbortSignal) =>
  apiGet<Page<AccessReviewItem>>(`${BASE}/items`, { ...view, filter: view.filter || undefined }, signal);

/** The page stays on screen while the next one loads. Idle without a campaign. */
export function useReviewItems(view: ItemsView | null) {
  return useQuery({
    queryKey: [...reviewKeys.items, view],
    queryFn: ({ signal }) => getReviewItems(view!, signal),
    enabled: view !== null,
    placeholderData: keepPreviousData,
  });
}

/** POST .../decisions: Keep or Remove; 422 fieldErrors (comment: required), 409/403 with a message. */
export const decideReviewItems = async (body: AccessReviewDecisionBody) =>
  (await apiPost<AccessReviewDecisionResult>(`${BASE}/decisions`, body)).data!;

/** A decision refreshes the items and the counts (progress bar, navigation, campaign pages). */
export function useDecideReviewItems({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof decideReviewItems> } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...mutationConfig,
    mutationFn: decideReviewItems,
    onSettled: (...args) => {
      void queryClient.invalidateQueries({ queryKey: reviewKeys.all });
      return mutationConfig?.onSettled?.(...args);
    },
  });
}

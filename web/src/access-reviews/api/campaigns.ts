import type { AccessReviewCampaign, AccessReviewCampaignDetail, CreateAccessReviewBody, Page } from '@portal/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost, downloadFile } from '../../lib/apiClient';
import type { MutationConfig } from '../../lib/reactQuery';
import { reviewKeys } from './reviewKeys';

/**
 * The ADMIN calls of access review campaigns (issue 25; contract/src/access-reviews.ts): the paged list, one
 * campaign with its progress by reviewer, starting one, closing it early or cancelling it, and its decisions
 * as CSV (the report's download habit: the server's file name, 403/422 as ApiError).
 */
export const CAMPAIGNS_URL = '/rest/secure/system_mgmt/access_reviews';

/** How often a campaign page re-reads a campaign still starting or closing (ms). */
export const CAMPAIGN_POLL_MS = 2_000;

/** GET .../access_reviews: one page of campaigns, newest first. */
export function useCampaigns(view: { page: number; size: number }) {
  return useQuery({
    queryKey: [...reviewKeys.campaigns, 'list', view],
    queryFn: ({ signal }) => apiGet<Page<AccessReviewCampaign>>(CAMPAIGNS_URL, view, signal),
    placeholderData: keepPreviousData,
  });
}

/**
 * GET .../access_reviews/{id}, re-read every CAMPAIGN_POLL_MS while it starts or closes, and, once `ending` was
 * accepted, while it still reads OPEN: the workflow accepts the close or cancel update before its
 * first step writes CLOSING or CANCELLED, so the re-read right after may still say OPEN.
 */
export const campaignQueryOptions = (id: number, ending = false) =>
  queryOptions({
    queryKey: reviewKeys.campaign(id),
    queryFn: ({ signal }) => apiGet<AccessReviewCampaignDetail>(`${CAMPAIGNS_URL}/${id}`, undefined, signal),
    refetchInterval: (query) => {
      const status = query.state.data?.status ?? '';
      const moving = ['STARTING', 'CLOSING'].includes(status) || (ending && status === 'OPEN');
      return moving ? CAMPAIGN_POLL_MS : false;
    },
  });

/** One campaign; `ending`: a close or cancel was accepted and the page follows it to its end. */
export function useCampaign(id: number, ending = false) {
  return useQuery(campaignQueryOptions(id, ending));
}

/** POST .../access_reviews: the stored campaign (STARTING); 422 fieldErrors by the definition's paths. */
export const createCampaign = async (body: CreateAccessReviewBody) =>
  (await apiPost<AccessReviewCampaign>(CAMPAIGNS_URL, body)).data!;

export function useCreateCampaign({ mutationConfig }: { mutationConfig?: MutationConfig<typeof createCampaign> } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...mutationConfig,
    mutationFn: createCampaign,
    onSuccess: (...args) => {
      void queryClient.invalidateQueries({ queryKey: reviewKeys.all });
      return mutationConfig?.onSuccess?.(...args);
    },
  });
}

/** POST .../access_reviews/{id}/close or /cancel: 409 with a message when it is already closing or closed. */
export const endCampaign = async ({ id, how }: { id: number; how: 'close' | 'cancel' }) =>
  (await apiPost<AccessReviewCampaign>(`${CAMPAIGNS_URL}/${id}/${how}`)).data;

export function useEndCampaign({ mutationConfig }: { mutationConfig?: MutationConfig<typeof endCampaign> } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...mutationConfig,
    mutationFn: endCampaign,
    onSettled: (...args) => {
      void queryClient.invalidateQueries({ queryKey: reviewKeys.all });
      return mutationConfig?.onSettled?.(...args);
    },
  });
}

/** GET .../access_reviews/{id}/decisions.csv: the decisions as a file. */
export const downloadDecisions = (id: number) => downloadFile(`${CAMPAIGNS_URL}/${id}/decisions.csv`);

export function useDownloadDecisions({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof downloadDecisions> } = {}) {
  return useMutation({ ...mutationConfig, mutationFn: downloadDecisions });
}

import type {
  AccessModRequest,
  AwaitingApprovalRow,
  Page,
  ReviewProcessing,
  StageDecisionBody,
} from '@portal/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../lib/apiClient';
import type { MutationConfig } from '../../lib/reactQuery';
import { requestKeys } from '../../lib/requestKeys';
import { reviewOutcome } from '../shared/api/reviewOutcome';

export const AWAITING_PATH = '/rest/secure/user_access_mod_request/awaiting_my_approval';
export const stagePath = (id: number) => `/rest/secure/user_access_mod_request/${id}/stage`;

export const approvalKeys = {
  all: ['awaitingApproval'] as const,
  page: (view: { page: number; size: number }) => ['awaitingApproval', view] as const,
};

/** GET .../awaiting_my_approval: one page of the stages the signed-in user may decide now. */
export function useAwaitingApproval(view: { page: number; size: number }) {
  return useQuery({
    queryKey: approvalKeys.page(view),
    queryFn: ({ signal }) => apiGet<Page<AwaitingApprovalRow>>(AWAITING_PATH, { ...view }, signal),
    placeholderData: keepPreviousData,
  });
}

export interface DecideStageInput {
  id: number;
  body: StageDecisionBody;
}

/**
 * POST .../{id}/stage: the decision of the open stage. Resolves with the outcome (saved with the fresh request,
 * or processing: 202); rejects with the ApiError on 403, 409 busy and 422 (stale version, `stage`, comment).
 */
export const decideStage = async ({ id, body }: DecideStageInput) =>
  reviewOutcome<AccessModRequest>(await apiPost<AccessModRequest | ReviewProcessing>(stagePath(id), body));

/** The decision mutation: a decided stage puts the fresh request in the cache and makes the lists stale. */
export function useDecideStage(mutationConfig: MutationConfig<typeof decideStage> = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig;
  return useMutation({
    ...rest,
    mutationFn: decideStage,
    onSuccess: (...args) => {
      const [outcome, input] = args;
      if (outcome.kind === 'saved' && outcome.request)
        queryClient.setQueryData(requestKeys.accessModRequest(input.id), outcome.request);
      void queryClient.invalidateQueries({ queryKey: approvalKeys.all });
      void queryClient.invalidateQueries({ queryKey: requestKeys.userRequests.all });
      return onSuccess?.(...args);
    },
  });
}

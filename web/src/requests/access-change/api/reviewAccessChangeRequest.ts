import type { AccessModRequest, ReviewAccessChangeBody, ReviewProcessing } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPut } from '../../../lib/apiClient';
import type { MutationConfig } from '../../../lib/reactQuery';
import { requestKeys } from '../../../lib/requestKeys';
import { reviewOutcome } from '../../shared/api/reviewOutcome';

/**
 * The review's body with, for an approval while approval stages are still open, User Support's override
 * justification (approval policies; without it such a save answers 422 'stagesOpen').
 */
export type ReviewAccessChangeSaveBody = ReviewAccessChangeBody & { approvalOverride?: string };

/**
 * PUT /rest/secure/user_management/review_access_change_request (000 §7; 001 §2.8; REQUEST-LIFECYCLE rule 6):
 * one reviewer save carrying the version read and the browser's attempt key. Resolves with the outcome (saved,
 * processing, unchanged); rejects with the ApiError on 409 REVIEW_IN_PROGRESS, 422 (fieldErrors, STALE_VERSION)
 * or 403.
 */
export const reviewAccessChangeRequest = async (body: ReviewAccessChangeSaveBody) =>
  reviewOutcome<AccessModRequest>(
    await apiPut<AccessModRequest | ReviewProcessing>(
      '/rest/secure/user_management/review_access_change_request',
      body,
    ),
  );

/**
 * The save mutation. A saved change makes the queue (and the dashboard's count) stale, and marks the request
 * stale without refetching it: the screen keeps showing what was saved until it leaves.
 */
export function useReviewAccessChangeRequest({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof reviewAccessChangeRequest> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: reviewAccessChangeRequest,
    onSuccess: (...args) => {
      const [outcome, body] = args;
      if (outcome.kind === 'saved') {
        void queryClient.invalidateQueries({ queryKey: requestKeys.userRequests.all });
        // The user's roles and access changed with the save (001 §2.8), without refetching them on this screen.
        void queryClient.invalidateQueries({ queryKey: ['reviewSubject'], refetchType: 'none' });
        void queryClient.invalidateQueries({
          queryKey: requestKeys.accessModRequest(body.userAccessModificationRequest.id),
          refetchType: 'none',
        });
      }
      return onSuccess?.(...args);
    },
  });
}

import {
  PROFILE_CHANGE_BASE,
  type ProfileChangeRequest,
  type ReviewProcessing,
  type UpdateProfileChangeBody,
} from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPut } from '../../../lib/apiClient';
import type { MutationConfig } from '../../../lib/reactQuery';
import { requestKeys } from '../../../lib/requestKeys';
import { reviewOutcome } from '../../shared/api/reviewOutcome';
import { profileChangeKeys } from './getProfileChangeRequest';

/**
 * PUT /rest/secure/ldap_user_profile_mod_request/{id} (001 §7, §2.10; REQUEST-LIFECYCLE rule 6): one reviewer
 * save at the version read, with the browser's attempt key. Resolves with the outcome (saved, processing,
 * unchanged); rejects with the ApiError on 409, 422 (fieldErrors, STALE_VERSION) or 403.
 */
export const reviewProfileChangeRequest = async (body: UpdateProfileChangeBody) =>
  reviewOutcome<ProfileChangeRequest>(
    await apiPut<ProfileChangeRequest | ReviewProcessing>(`${PROFILE_CHANGE_BASE}/${body.id}`, body),
  );

/** The save mutation: a saved change makes the queue stale and marks the request stale without refetching it. */
export function useReviewProfileChangeRequest({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof reviewProfileChangeRequest> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: reviewProfileChangeRequest,
    onSuccess: (...args) => {
      const [outcome, body] = args;
      if (outcome.kind === 'saved') {
        void queryClient.invalidateQueries({ queryKey: requestKeys.userRequests.all });
        void queryClient.invalidateQueries({ queryKey: profileChangeKeys.request(body.id), refetchType: 'none' });
      }
      return onSuccess?.(...args);
    },
  });
}

import type { Registration, RegistrationUpdateBody, ReviewProcessing } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPut } from '../../../lib/apiClient';
import type { MutationConfig } from '../../../lib/reactQuery';
import { requestKeys } from '../../../lib/requestKeys';
import { reviewOutcome } from '../../shared/api/reviewOutcome';
import { registrationKeys } from './getRegistration';

/**
 * PUT /rest/secure/user_registration/{id} (001 §2.4 save, §7; REQUEST-LIFECYCLE rule 6): the reviewer's
 * comments, external ticket and portal roles at the version read, with the attempt key. Resolves with the
 * outcome (saved, processing, unchanged); rejects with the ApiError on 409, 422 or 403.
 */
export const updateRegistration = async (body: RegistrationUpdateBody) =>
  reviewOutcome<Registration>(
    await apiPut<Registration | ReviewProcessing>(`/rest/secure/user_registration/${body.id}`, body),
  );

/** The save mutation: a saved registration makes the queue stale (the screen keeps what it saved). */
export function useUpdateRegistration({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof updateRegistration> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: updateRegistration,
    onSuccess: (...args) => {
      if (args[0].kind === 'saved') {
        void queryClient.invalidateQueries({ queryKey: requestKeys.userRequests.all });
        void queryClient.invalidateQueries({ queryKey: registrationKeys.one(args[1].id), refetchType: 'none' });
      }
      return onSuccess?.(...args);
    },
  });
}

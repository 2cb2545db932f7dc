import type { Registration, ReviewProcessing } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/apiClient';
import type { MutationConfig } from '../../../lib/reactQuery';
import { requestKeys } from '../../../lib/requestKeys';
import { reviewOutcome } from '../../shared/api/reviewOutcome';

export interface DeleteRegistrationVariables {
  id: number;
  /** The version shown, and the attempt's key: a retry after a 202 or a lost answer joins the first attempt. */
  versionno: number;
  attemptKey: string;
}

/**
 * DELETE /rest/secure/user_registration/{id}?versionno=&attemptKey= (001 §2.4, §7; REQUEST-LIFECYCLE rule 6):
 * removes a pending registration (kept as DELETED for the audit trail, never listed). Resolves with the
 * outcome (saved, processing); rejects with the ApiError (403, 404, 409, 422).
 */
export const deleteRegistration = async ({ id, versionno, attemptKey }: DeleteRegistrationVariables) =>
  reviewOutcome<Registration>(
    await request<Registration | ReviewProcessing>('DELETE', `/rest/secure/user_registration/${id}`, {
      query: { versionno, attemptKey },
    }),
  );

/** The delete mutation: the queue loses the row. */
export function useDeleteRegistration({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof deleteRegistration> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: deleteRegistration,
    onSuccess: async (...args) => {
      if (args[0].kind === 'saved') await queryClient.invalidateQueries({ queryKey: requestKeys.userRequests.all });
      return onSuccess?.(...args);
    },
  });
}

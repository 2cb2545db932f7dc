import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/apiClient';
import type { MutationConfig } from '../../../lib/reactQuery';
import { requestKeys } from '../../../lib/requestKeys';

/**
 * DELETE /rest/secure/user_registration/{id} (001 §2.4, §7): removes a pending registration (kept as DELETED
 * for the audit trail, never listed). Rejects with the ApiError (403, 404, 422).
 */
export const deleteRegistration = async (id: number) => {
  await request<unknown>('DELETE', `/rest/secure/user_registration/${id}`);
};

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
      await queryClient.invalidateQueries({ queryKey: requestKeys.userRequests.all });
      return onSuccess?.(...args);
    },
  });
}

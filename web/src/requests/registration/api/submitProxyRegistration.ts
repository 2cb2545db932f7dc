import type { ProxyRegistrationBody, Registration } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/apiClient';
import type { MutationConfig } from '../../../lib/reactQuery';
import { requestKeys } from '../../../lib/requestKeys';

/**
 * POST /rest/secure/user_registration (001 §2.2, §7 Registrations): 'Request a User' for someone else, with the
 * person completing the form. Answers the filed registration (PENDING); a refusal rejects with the ApiError.
 */
export const submitProxyRegistration = async (body: ProxyRegistrationBody) =>
  (await apiPost<Registration>('/rest/secure/user_registration', body)).data as Registration;

/** The proxy filing mutation: a new pending registration makes the reviewers' queue stale. */
export function useSubmitProxyRegistration({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof submitProxyRegistration> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: submitProxyRegistration,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: requestKeys.userRequests.all });
      return onSuccess?.(...args);
    },
  });
}

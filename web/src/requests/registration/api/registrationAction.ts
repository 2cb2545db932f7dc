import type { Registration, RegistrationActionBody, ReviewProcessing } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/apiClient';
import type { MutationConfig } from '../../../lib/reactQuery';
import { requestKeys } from '../../../lib/requestKeys';
import { reviewOutcome } from '../../shared/api/reviewOutcome';

export interface RegistrationActionVariables {
  action: 'approve' | 'deny';
  body: RegistrationActionBody;
  /** 'Create User Anyway' after the internal-domain warning (001 §4 Approval warning). */
  ignoreValidationWarnings?: boolean;
}

/**
 * PUT /rest/secure/user_registration_action/{approve|deny}[?ignoreValidationWarnings=true] (001 §3 approve/deny
 * body, §7, §8): 'Create User' or reject, with the attempt key. Resolves with the outcome (saved, processing);
 * rejects with the ApiError: 409 another action running, 422 fieldErrors (the internal-domain warning on the
 * email key) or globalErrors (PREEXISTING_AD_ACCOUNT_REQUIRED, STALE_VERSION), 403.
 */
export const registrationAction = async ({ action, body, ignoreValidationWarnings }: RegistrationActionVariables) =>
  reviewOutcome<Registration>(
    await request<Registration | ReviewProcessing>('PUT', `/rest/secure/user_registration_action/${action}`, {
      body,
      query: { ignoreValidationWarnings: ignoreValidationWarnings ? 'true' : undefined },
    }),
  );

/** The action mutation: an approved or denied registration leaves the pending queue. */
export function useRegistrationAction({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof registrationAction> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: registrationAction,
    onSuccess: async (...args) => {
      if (args[0].kind === 'saved') await queryClient.invalidateQueries({ queryKey: requestKeys.userRequests.all });
      return onSuccess?.(...args);
    },
  });
}

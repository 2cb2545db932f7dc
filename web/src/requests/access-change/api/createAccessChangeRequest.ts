import type { AccessModRequest, CreateAccessModRequestBody } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/apiClient';
import type { MutationConfig } from '../../../lib/reactQuery';
import { sessionKeys } from '../../../lib/sessionQueries';

/**
 * POST /rest/secure/user_access_mod_request (000 §7; 001 §2.5): files the signed-in user's own NEW, CHANGE or
 * REMOVAL request. 201 answers the request, 304 'no changes'; a refusal rejects with the ApiError (422
 * fieldErrors, globalErrors REQUEST_IN_PROGRESS).
 */
export const createAccessChangeRequest = (body: CreateAccessModRequestBody) =>
  apiPost<AccessModRequest>('/rest/secure/user_access_mod_request', body);

/** The filing mutation; a filed request refreshes the user's own request list before the screen goes on. */
export function useCreateAccessChangeRequest({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof createAccessChangeRequest> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: createAccessChangeRequest,
    onSuccess: async (...args) => {
      if (args[0].status !== 304) await queryClient.invalidateQueries({ queryKey: sessionKeys.ownRequests });
      return onSuccess?.(...args);
    },
  });
}

import type { ReplaceUserAccessBody, UserAccessContent } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPut, type ApiResponse } from '../../lib/apiClient';
import type { MutationConfig } from '../../lib/reactQuery';
import { userKeys } from './userKeys';

/**
 * PUT /rest/secure/user_access/user/{portalUserId} (000 §7): the user's access becomes the body's userAccesses.
 * 200 with the active records, 304 no changes, 422 fieldErrors (`userAccesses[i].<field>`), REQUEST_IN_PROGRESS
 * or STALE_VERSION.
 */
export const replaceUserAccess = ({ portalUserId, body }: { portalUserId: number; body: ReplaceUserAccessBody }) =>
  apiPut<UserAccessContent>(`/rest/secure/user_access/user/${portalUserId}`, body) as Promise<
    ApiResponse<UserAccessContent>
  >;

/** The save; a change refreshes the user (their access is part of the detail). */
export function useReplaceUserAccess({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof replaceUserAccess> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: replaceUserAccess,
    onSuccess: (...args) => {
      if (args[0].status !== 304) void queryClient.invalidateQueries({ queryKey: userKeys.all });
      return onSuccess?.(...args);
    },
  });
}

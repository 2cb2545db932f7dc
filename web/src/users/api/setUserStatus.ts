import type { UserDetail } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPut, type ApiResponse } from '../../lib/apiClient';
import type { MutationConfig } from '../../lib/reactQuery';
import { userKeys } from './userKeys';

export interface SetUserStatusInput {
  id: number;
  action: 'activate' | 'deactivate';
}

/** PUT /rest/secure/user_management/activate_user/{id} or deactivate_user/{id} (000 §7). */
export const setUserStatus = ({ id, action }: SetUserStatusInput): Promise<ApiResponse<UserDetail>> =>
  apiPut<UserDetail>(`/rest/secure/user_management/${action}_user/${id}`);

/** The status change; afterwards the user is reloaded (000 §4 User status) and the lists refreshed. */
export function useSetUserStatus({ mutationConfig }: { mutationConfig?: MutationConfig<typeof setUserStatus> } = {}) {
  const queryClient = useQueryClient();
  const { onSettled, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: setUserStatus,
    onSettled: (...args) => {
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
      return onSettled?.(...args);
    },
  });
}

import type { UserDetail, UserUpdateBody } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPut, type ApiResponse } from '../../lib/apiClient';
import type { MutationConfig } from '../../lib/reactQuery';
import { userKeys } from './userKeys';

/** PUT /rest/secure/user_management/update_user (000 §7): 200 the saved user, 304 no changes, 422 errors. */
export const updateUser = (body: UserUpdateBody): Promise<ApiResponse<UserDetail>> =>
  apiPut<UserDetail>('/rest/secure/user_management/update_user', body);

/** The save; a change refreshes the user and the users lists. */
export function useUpdateUser({ mutationConfig }: { mutationConfig?: MutationConfig<typeof updateUser> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: updateUser,
    onSuccess: (...args) => {
      if (args[0].status !== 304) void queryClient.invalidateQueries({ queryKey: userKeys.all });
      return onSuccess?.(...args);
    },
  });
}

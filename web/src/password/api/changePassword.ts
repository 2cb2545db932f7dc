import type { ChangePasswordBody } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../lib/apiClient';
import type { MutationConfig } from '../../lib/reactQuery';

/** POST /rest/secure/change_password/attempt (000 §7): 422 fieldErrors or a failureDescription on refusal. */
export const changePassword = (body: ChangePasswordBody) => apiPost('/rest/secure/change_password/attempt', body);

/** The change mutation; the screen adds its messages and what follows a change. */
export function useChangePassword({ mutationConfig }: { mutationConfig?: MutationConfig<typeof changePassword> } = {}) {
  return useMutation({ ...mutationConfig, mutationFn: changePassword });
}

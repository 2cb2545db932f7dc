import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/apiClient';
import type { MutationConfig } from '../../lib/reactQuery';
import { ssoClientUrl } from './getSsoClient';
import { storeSsoClient } from './saveSsoClient';

/** DELETE a system's single sign-on client: the system no longer signs in through the portal. */
export const deleteSsoClient = async (systemId: number): Promise<void> => {
  await request<unknown>('DELETE', ssoClientUrl(systemId));
};

/** The removal mutation; the cached client becomes none. */
export function useDeleteSsoClient({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof deleteSsoClient> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: deleteSsoClient,
    onSuccess: (...args) => {
      storeSsoClient(queryClient, args[1], null);
      return onSuccess?.(...args);
    },
  });
}

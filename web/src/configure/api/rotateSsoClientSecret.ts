import type { SsoClientSaved } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../lib/apiClient';
import type { MutationConfig } from '../../lib/reactQuery';
import { ssoClientUrl } from './getSsoClient';
import { storeSsoClient } from './saveSsoClient';

/** POST .../sso_client/secret: a new secret for a confidential client, answered once; the old one ends. */
export const rotateSsoClientSecret = async (systemId: number): Promise<SsoClientSaved> =>
  (await apiPost<SsoClientSaved>(`${ssoClientUrl(systemId)}/secret`)).data!;

/** The rotation mutation; it updates the cached client. */
export function useRotateSsoClientSecret({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof rotateSsoClientSecret> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: rotateSsoClientSecret,
    onSuccess: (...args) => {
      storeSsoClient(queryClient, args[1], args[0]);
      return onSuccess?.(...args);
    },
  });
}

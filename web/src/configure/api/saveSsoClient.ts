import type { SsoClient, SsoClientBody, SsoClientSaved } from '@portal/contract';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiPut, type ApiResponse } from '../../lib/apiClient';
import type { MutationConfig } from '../../lib/reactQuery';
import { configKeys } from './configKeys';
import { ssoClientUrl } from './getSsoClient';

export interface SaveSsoClientInput {
  systemId: number;
  body: SsoClientBody;
}

/**
 * PUT a system's single sign-on client (create or change). 200 answers the client and, when one was just
 * issued, its secret (shown once); 304 is 'no changes'; a refusal rejects with the ApiError (422, 403).
 */
export const saveSsoClient = ({ systemId, body }: SaveSsoClientInput): Promise<ApiResponse<SsoClientSaved>> =>
  apiPut<SsoClientSaved>(ssoClientUrl(systemId), body);

/** Puts what a save or rotation answered into the cache, without the secret; the audit trail is stale. */
export function storeSsoClient(queryClient: QueryClient, systemId: number, saved: SsoClientSaved | null): void {
  let client: SsoClient | null = null;
  if (saved) {
    const { clientSecret: _secret, ...rest } = saved;
    client = rest;
  }
  queryClient.setQueryData(configKeys.ssoClient(systemId), client);
  void queryClient.invalidateQueries({ queryKey: ['audit'] });
}

/** The save mutation; a change updates the cached client. */
export function useSaveSsoClient({ mutationConfig }: { mutationConfig?: MutationConfig<typeof saveSsoClient> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: saveSsoClient,
    onSuccess: (...args) => {
      const [res, input] = args;
      if (res.status !== 304 && res.data) storeSsoClient(queryClient, input.systemId, res.data);
      return onSuccess?.(...args);
    },
  });
}

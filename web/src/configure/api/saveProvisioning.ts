import type { ProvisioningBody, ProvisioningConnection } from '@portal/contract';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiPut, request, type ApiResponse } from '../../lib/apiClient';
import type { MutationConfig } from '../../lib/reactQuery';
import { configKeys } from './configKeys';
import { provisioningUrl } from './getProvisioning';

export interface SaveProvisioningInput {
  systemId: number;
  body: ProvisioningBody;
}

/**
 * PUT a system's provisioning connection (create or change; issue 41). `token` null keeps the stored one.
 * 200 answers the connection (never the token); 304 is 'no changes'; a refusal rejects with the ApiError.
 */
export const saveProvisioning = ({
  systemId,
  body,
}: SaveProvisioningInput): Promise<ApiResponse<ProvisioningConnection>> =>
  apiPut<ProvisioningConnection>(provisioningUrl(systemId), body);

/** DELETE a system's provisioning connection: the portal stops provisioning it. */
export const deleteProvisioning = async (systemId: number): Promise<void> => {
  await request<unknown>('DELETE', provisioningUrl(systemId));
};

/** Puts what the server answered into the cache; its runs and the audit trail are stale. */
function storeConnection(queryClient: QueryClient, systemId: number, connection: ProvisioningConnection | null) {
  queryClient.setQueryData(configKeys.provisioning(systemId), connection);
  void queryClient.invalidateQueries({ queryKey: configKeys.reconciliations(systemId) });
  void queryClient.invalidateQueries({ queryKey: ['audit'] });
}

/** The save mutation; a change updates the cached connection. */
export function useSaveProvisioning({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof saveProvisioning> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: saveProvisioning,
    onSuccess: (...args) => {
      const [res, input] = args;
      if (res.status !== 304 && res.data) storeConnection(queryClient, input.systemId, res.data);
      return onSuccess?.(...args);
    },
  });
}

/** The removal mutation; the cached connection becomes none. */
export function useDeleteProvisioning({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof deleteProvisioning> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: deleteProvisioning,
    onSuccess: (...args) => {
      storeConnection(queryClient, args[1], null);
      return onSuccess?.(...args);
    },
  });
}

import type { ProvisioningAccount } from '@portal/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../lib/apiClient';
import type { MutationConfig } from '../../lib/reactQuery';
import { userKeys } from './userKeys';

/** How often the Access tab re-reads a person's accounts while one is still Pending (ms). */
export const PROVISIONING_POLL_MS = 2_000;

const provisioningKey = (portalUserId: number) => [...userKeys.detail(portalUserId), 'provisioning'] as const;

/**
 * GET /rest/secure/user_management/user/{id}/provisioning (issue 41): the person's account at each provisioned
 * system, re-read every PROVISIONING_POLL_MS while any is Pending, so 'Pending' turns into 'In sync' (or
 * 'Error') without a reload.
 */
export const userProvisioningQueryOptions = (portalUserId: number) =>
  queryOptions({
    queryKey: provisioningKey(portalUserId),
    queryFn: ({ signal }) =>
      apiGet<ProvisioningAccount[]>(
        `/rest/secure/user_management/user/${portalUserId}/provisioning`,
        undefined,
        signal,
      ),
    refetchInterval: (query) => (query.state.data?.some((a) => a.state === 'PENDING') ? PROVISIONING_POLL_MS : false),
  });

export const useUserProvisioning = (portalUserId: number) => useQuery(userProvisioningQueryOptions(portalUserId));

/** POST .../system_access/{systemId}/provisioning/resync {portalUserId}: converges the person's account again. */
export const resyncAccount = async ({ systemId, portalUserId }: { systemId: number; portalUserId: number }) => {
  await apiPost<unknown>(`/rest/secure/system_mgmt/system_access/${systemId}/provisioning/resync`, { portalUserId });
};

/** The re-sync; the accounts are re-read (the row is Pending now, and the polling follows it). */
export function useResyncAccount({ mutationConfig }: { mutationConfig?: MutationConfig<typeof resyncAccount> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: resyncAccount,
    onSuccess: (...args) => {
      void queryClient.invalidateQueries({ queryKey: provisioningKey(args[1].portalUserId) });
      return onSuccess?.(...args);
    },
  });
}

import type { ProvisioningConnection, ProvisioningTestResult, ReconciliationSummary } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../lib/apiClient';
import type { MutationConfig } from '../../lib/reactQuery';
import { configKeys } from './configKeys';
import { provisioningUrl } from './getProvisioning';

/**
 * The actions on a system's provisioning connection (issue 41, ADMIN, audited): 'Test connection' (the target's
 * /ServiceProviderConfig read with the stored token), 'Re-sync this person' and 'Reconcile now'.
 */

/** POST .../provisioning/test: whether the target answered, in words, and when. */
export const testProvisioning = async (systemId: number): Promise<ProvisioningTestResult> =>
  (await apiPost<ProvisioningTestResult>(`${provisioningUrl(systemId)}/test`)).data!;

/** POST .../provisioning/resync {portalUserId}: the person's account is converged again. */
export const resyncPerson = async ({ systemId, portalUserId }: { systemId: number; portalUserId: number }) => {
  await apiPost<unknown>(`${provisioningUrl(systemId)}/resync`, { portalUserId });
};

/** POST .../provisioning/reconcile: the run just started (RUNNING); 503 when the workflow service is away. */
export const reconcileNow = async (systemId: number): Promise<ReconciliationSummary> =>
  (await apiPost<ReconciliationSummary>(`${provisioningUrl(systemId)}/reconcile`)).data!;

/**
 * The test; its result becomes the cached connection's last test (not a re-read: the form keeps what is typed).
 */
export function useTestProvisioning({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof testProvisioning> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: testProvisioning,
    onSuccess: (...args) => {
      const [result, systemId] = args;
      queryClient.setQueryData<ProvisioningConnection | null>(configKeys.provisioning(systemId), (c) =>
        c ? { ...c, lastTestAt: result.testedAt, lastTestOk: result.ok, lastTestMessage: result.message } : c,
      );
      void queryClient.invalidateQueries({ queryKey: ['audit'] });
      return onSuccess?.(...args);
    },
  });
}

/** The re-sync; the connection's account counts are stale. */
export function useResyncPerson({ mutationConfig }: { mutationConfig?: MutationConfig<typeof resyncPerson> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: resyncPerson,
    onSuccess: (...args) => {
      void queryClient.invalidateQueries({ queryKey: configKeys.provisioning(args[1].systemId), exact: true });
      return onSuccess?.(...args);
    },
  });
}

/** 'Reconcile now'; the connection (its last run, re-read while it runs) and the list of runs are stale. */
export function useReconcileNow({ mutationConfig }: { mutationConfig?: MutationConfig<typeof reconcileNow> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: reconcileNow,
    onSuccess: (...args) => {
      void queryClient.invalidateQueries({ queryKey: configKeys.provisioning(args[1]) });
      void queryClient.invalidateQueries({ queryKey: ['audit'] });
      return onSuccess?.(...args);
    },
  });
}

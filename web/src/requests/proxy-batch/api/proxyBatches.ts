import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { ProxyBatch, ProxyBatchDetail, StartProxyBatchBody } from '@portal/contract';
import { apiGet, apiPost } from '../../../lib/apiClient';
import type { MutationConfig } from '../../../lib/reactQuery';

/**
 * The proxy batch calls (docs/api.md; not in the spec): start a batch, read one with its per-user results
 * (polled while it runs), and the proxy's batches (the page re-attaches to a running one).
 */
const BASE = '/rest/secure/user_access_mod_request/proxy_batch';

export const proxyBatchKeys = {
  all: ['proxyBatches'] as const,
  one: (id: number) => ['proxyBatches', id] as const,
};

/** How often the page reads a running batch's progress (ms). */
export const PROGRESS_POLL_MS = 400;

/** POST .../proxy_batch: 200 answers the stored batch (RUNNING), 403 without the right or outside the sites, 422. */
export const startProxyBatch = (body: StartProxyBatchBody) => apiPost<ProxyBatchDetail>(BASE, body);

export function useStartProxyBatch({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof startProxyBatch> } = {}) {
  return useMutation({ ...mutationConfig, mutationFn: startProxyBatch });
}

/** GET .../proxy_batch/{id}, polled every PROGRESS_POLL_MS while the batch is RUNNING. */
export const proxyBatchQueryOptions = (id: number) =>
  queryOptions({
    queryKey: proxyBatchKeys.one(id),
    queryFn: ({ signal }) => apiGet<ProxyBatchDetail>(`${BASE}/${id}`, undefined, signal),
    refetchInterval: (query) =>
      query.state.data?.status === 'RUNNING' || !query.state.data ? PROGRESS_POLL_MS : false,
  });

export function useProxyBatch(id: number | null) {
  return useQuery({ ...proxyBatchQueryOptions(id ?? 0), enabled: id !== null });
}

/** GET .../proxy_batch: the signed-in proxy's batches, newest first. */
export function useProxyBatches(enabled: boolean) {
  return useQuery({
    queryKey: proxyBatchKeys.all,
    queryFn: async ({ signal }) => (await apiGet<{ content: ProxyBatch[] }>(BASE, undefined, signal)).content,
    enabled,
  });
}

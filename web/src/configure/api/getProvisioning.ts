import type { ProvisioningConnection } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/apiClient';
import { configKeys } from './configKeys';

/**
 * Where a system's provisioning connection lives (issue 41): GET / PUT / DELETE, and under it `/test`,
 * `/resync`, `/reconcile` and `/reconciliations`.
 */
export const provisioningUrl = (systemId: number) => `/rest/secure/system_mgmt/system_access/${systemId}/provisioning`;

/** How often the section re-reads a connection whose last reconciliation is still running (ms). */
export const RECONCILIATION_POLL_MS = 2_000;

/** GET a system's provisioning connection (never its token): null when it has none. */
export const getProvisioning = (systemId: number, signal?: AbortSignal) =>
  apiGet<ProvisioningConnection | null>(provisioningUrl(systemId), undefined, signal);

/** The connection, re-read while its last reconciliation runs, so the summary reaches its end by itself. */
export const provisioningQueryOptions = (systemId: number) =>
  queryOptions({
    queryKey: configKeys.provisioning(systemId),
    queryFn: ({ signal }) => getProvisioning(systemId, signal).then((c) => c ?? null),
    refetchInterval: (query) =>
      query.state.data?.lastReconciliation?.status === 'RUNNING' ? RECONCILIATION_POLL_MS : false,
  });

/** The system's provisioning connection (null: not set up). */
export const useProvisioning = (systemId: number) => useQuery(provisioningQueryOptions(systemId));

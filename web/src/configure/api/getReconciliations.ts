import type { Page, ReconciliationReport, ReconciliationSummary } from '@portal/contract';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { apiGet, downloadFile } from '../../lib/apiClient';
import type { MutationConfig } from '../../lib/reactQuery';
import { configKeys } from './configKeys';
import { RECONCILIATION_POLL_MS, provisioningUrl } from './getProvisioning';

/**
 * A system's reconciliation runs (issue 41): the paged list (newest first), one run's report (its counts and
 * the first PROVISIONING_LIMITS.reportDifferences differences) and all its differences as CSV.
 */
const runsUrl = (systemId: number) => `${provisioningUrl(systemId)}/reconciliations`;

/** GET .../reconciliations?page&size: one page of runs. */
export function useReconciliations(systemId: number, view: { page: number; size: number }, enabled = true) {
  return useQuery({
    queryKey: configKeys.reconciliations(systemId, view),
    queryFn: ({ signal }) => apiGet<Page<ReconciliationSummary>>(runsUrl(systemId), view, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** GET .../reconciliations/{runId}: the run's report, re-read while the run is still running. */
export function useReconciliationReport(systemId: number, runId: number | null) {
  return useQuery({
    queryKey: configKeys.reconciliation(systemId, runId ?? 0),
    queryFn: ({ signal }) => apiGet<ReconciliationReport>(`${runsUrl(systemId)}/${runId}`, undefined, signal),
    enabled: runId !== null,
    refetchInterval: (query) => (query.state.data?.status === 'RUNNING' ? RECONCILIATION_POLL_MS : false),
  });
}

/** GET .../reconciliations/{runId}/differences.csv: every difference of the run, as a file. */
export const downloadDifferences = ({ systemId, runId }: { systemId: number; runId: number }) =>
  downloadFile(`${runsUrl(systemId)}/${runId}/differences.csv`);

export function useDownloadDifferences({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof downloadDifferences> } = {}) {
  return useMutation({ ...mutationConfig, mutationFn: downloadDifferences });
}

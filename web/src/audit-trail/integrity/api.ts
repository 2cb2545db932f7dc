import type { AuditIntegrity, AuditVerifyStarted } from '@portal/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../lib/apiClient';
import type { MutationConfig } from '../../lib/reactQuery';

/**
 * Audit Integrity's calls (contract/src/audit-integrity.ts): the state, re-read every AUDIT_INTEGRITY_POLL_MS
 * while a verification runs, and 'Verify now' (202 `{ running: true }`, 503 with a message when the workflow
 * service does not answer).
 */
export const AUDIT_INTEGRITY_URL = '/rest/secure/audit_integrity';

/** How often the page re-reads the state while a verification runs (ms). */
export const AUDIT_INTEGRITY_POLL_MS = 2_000;

const integrityKey = ['audit', 'integrity'] as const;

/** GET /rest/secure/audit_integrity; polled while `running`. */
export function useAuditIntegrity() {
  return useQuery({
    queryKey: integrityKey,
    queryFn: ({ signal }) => apiGet<AuditIntegrity>(AUDIT_INTEGRITY_URL, undefined, signal),
    refetchInterval: (query) => (query.state.data?.running ? AUDIT_INTEGRITY_POLL_MS : false),
  });
}

/** POST .../verify. */
export const startVerification = async () => (await apiPost<AuditVerifyStarted>(`${AUDIT_INTEGRITY_URL}/verify`)).data!;

/** 'Verify now': once accepted, the state reads as running at once (the poll then follows the run). */
export function useVerifyNow({ mutationConfig }: { mutationConfig?: MutationConfig<typeof startVerification> } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...mutationConfig,
    mutationFn: startVerification,
    onSuccess: (...args) => {
      queryClient.setQueryData<AuditIntegrity>(integrityKey, (old) => old && { ...old, running: true });
      void queryClient.invalidateQueries({ queryKey: integrityKey });
      return mutationConfig?.onSuccess?.(...args);
    },
  });
}

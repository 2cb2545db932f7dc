import type { AuditEvent, Page } from '@portal/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/apiClient';
import { apiQuery, type AuditView } from '../view';

/** GET /rest/secure/audit_trail: one page of audit events for a view (filters, page, sort). */
export const getAuditTrail = (view: AuditView, signal?: AbortSignal) =>
  apiGet<Page<AuditEvent>>('/rest/secure/audit_trail', apiQuery(view), signal);

/** Keyed under ['audit'], which every configuration change invalidates. */
export const auditTrailQueryOptions = (view: AuditView) =>
  queryOptions({
    queryKey: ['audit', apiQuery(view)],
    queryFn: ({ signal }) => getAuditTrail(view, signal),
    placeholderData: keepPreviousData,
  });

/** The audit trail page of a view; the previous page stays while the next loads. */
export function useAuditTrail(view: AuditView) {
  return useQuery(auditTrailQueryOptions(view));
}

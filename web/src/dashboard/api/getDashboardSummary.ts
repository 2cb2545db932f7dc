import type { DashboardSummary } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/apiClient';
import { dashboardKeys } from './dashboardKeys';

/** GET /rest/secure/dashboard/summary: highest permission, what it grants, the sections to show. */
export const getDashboardSummary = (signal?: AbortSignal) =>
  apiGet<DashboardSummary>('/rest/secure/dashboard/summary', undefined, signal);

export const dashboardSummaryQueryOptions = () =>
  queryOptions({
    queryKey: dashboardKeys.summary,
    queryFn: ({ signal }) => getDashboardSummary(signal),
    staleTime: 60_000,
  });

export const useDashboardSummary = () => useQuery(dashboardSummaryQueryOptions());

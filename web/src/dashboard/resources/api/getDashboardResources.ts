import { DASHBOARD_RESOURCE_PATHS, type DashboardResources } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/apiClient';

/** Query key of the signed-in person's dashboard resources; the Configure editors invalidate ['dashboard']. */
export const dashboardResourcesKey = ['dashboard', 'resources'] as const;

/** GET /rest/secure/dashboard/resources: the person's active items and the categories that hold them. */
export const getDashboardResources = (signal?: AbortSignal) =>
  apiGet<DashboardResources>(DASHBOARD_RESOURCE_PATHS.dashboard, undefined, signal);

export const dashboardResourcesQueryOptions = () =>
  queryOptions({
    queryKey: dashboardResourcesKey,
    queryFn: ({ signal }) => getDashboardResources(signal),
    // e-learning addresses are signed for some hours: a minute-old list is still good to open.
    staleTime: 60_000,
  });

export const useDashboardResources = () => useQuery(dashboardResourcesQueryOptions());

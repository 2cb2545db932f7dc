import type { DashboardRequests } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/apiClient';
import { dashboardKeys } from './dashboardKeys';

/** GET /rest/secure/dashboard/requests (USER): the user's open requests and latest decisions. */
export const getDashboardRequests = (signal?: AbortSignal) =>
  apiGet<DashboardRequests>('/rest/secure/dashboard/requests', undefined, signal);

export const dashboardRequestsQueryOptions = () =>
  queryOptions({ queryKey: dashboardKeys.requests, queryFn: ({ signal }) => getDashboardRequests(signal) });

/** Loaded only when the summary shows the requester's section. */
export const useDashboardRequests = (enabled: boolean) => useQuery({ ...dashboardRequestsQueryOptions(), enabled });

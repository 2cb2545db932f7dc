import type { DashboardQueues } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/apiClient';
import { dashboardKeys } from './dashboardKeys';

/** GET /rest/secure/dashboard/queues (READ_USERS): open requests by kind, status and age. */
export const getDashboardQueues = (signal?: AbortSignal) =>
  apiGet<DashboardQueues>('/rest/secure/dashboard/queues', undefined, signal);

export const dashboardQueuesQueryOptions = () =>
  queryOptions({ queryKey: dashboardKeys.queues, queryFn: ({ signal }) => getDashboardQueues(signal) });

/** Loaded only when the summary shows the reviewers' section. */
export const useDashboardQueues = (enabled: boolean) => useQuery({ ...dashboardQueuesQueryOptions(), enabled });

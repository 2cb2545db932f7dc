import {
  DASHBOARD_RESOURCE_PATHS,
  resourcePath,
  type DashboardItem,
  type DashboardUploadLimits,
} from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/apiClient';
import { resourceKeys } from './resourceKeys';

/** GET .../dashboard_items (ADMIN): every item, active or not. */
export const getDashboardItems = (signal?: AbortSignal) =>
  apiGet<DashboardItem[]>(DASHBOARD_RESOURCE_PATHS.items, undefined, signal);

/** GET .../dashboard_items/{id} (ADMIN). */
export const getDashboardItem = (id: number, signal?: AbortSignal) =>
  apiGet<DashboardItem>(resourcePath(DASHBOARD_RESOURCE_PATHS.item, { id }), undefined, signal);

/** GET .../dashboard_items/limits (ADMIN): the upload limits configured, shown beside the file fields. */
export const getUploadLimits = (signal?: AbortSignal) =>
  apiGet<DashboardUploadLimits>(DASHBOARD_RESOURCE_PATHS.limits, undefined, signal);

export const useDashboardItems = () =>
  useQuery(queryOptions({ queryKey: resourceKeys.items, queryFn: ({ signal }) => getDashboardItems(signal) }));

/** One item for its editor; `id` null (a new item) loads nothing. */
export const useDashboardItem = (id: number | null) =>
  useQuery({
    queryKey: resourceKeys.item(id ?? 0),
    queryFn: ({ signal }) => getDashboardItem(id!, signal),
    enabled: id !== null,
  });

export const useUploadLimits = () =>
  useQuery({ queryKey: resourceKeys.limits, queryFn: ({ signal }) => getUploadLimits(signal), staleTime: 300_000 });

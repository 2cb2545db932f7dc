import { DASHBOARD_RESOURCE_PATHS, type ResourceCategory } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/apiClient';
import { resourceKeys } from './resourceKeys';

/** GET .../resource_categories (ADMIN): every category, active or not. */
export const getResourceCategories = (signal?: AbortSignal) =>
  apiGet<ResourceCategory[]>(DASHBOARD_RESOURCE_PATHS.categories, undefined, signal);

export const resourceCategoriesQueryOptions = () =>
  queryOptions({ queryKey: resourceKeys.categories, queryFn: ({ signal }) => getResourceCategories(signal) });

/** The category tree's records (the Categories tab, the category and item editors). */
export const useResourceCategories = () => useQuery(resourceCategoriesQueryOptions());

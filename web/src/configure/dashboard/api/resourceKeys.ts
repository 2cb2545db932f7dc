import type { QueryClient } from '@tanstack/react-query';

/** Query keys of the dashboard-resource screens of Configure (issue 23), under ['configure']. */
export const resourceKeys = {
  categories: ['configure', 'resourceCategories'] as const,
  items: ['configure', 'dashboardItems'] as const,
  item: (id: number) => ['configure', 'dashboardItems', id] as const,
  limits: ['configure', 'dashboardItems', 'limits'] as const,
};

/**
 * After a change: both lists, the dashboard's own resources (['dashboard', 'resources']) and the audit trail
 * (a row more) are stale.
 */
export function invalidateResources(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: resourceKeys.categories }),
    queryClient.invalidateQueries({ queryKey: resourceKeys.items }),
    queryClient.invalidateQueries({ queryKey: ['dashboard', 'resources'] }),
    queryClient.invalidateQueries({ queryKey: ['audit'] }),
  ]).then(() => undefined);
}

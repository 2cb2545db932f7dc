import type { TableauToken, Visualization } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/apiClient';
import { dashboardKeys } from './dashboardKeys';

/** GET /rest/secure/tableau/visualization/{id} (000 §7). */
export const getVisualization = (id: number, signal?: AbortSignal) =>
  apiGet<Visualization>(`/rest/secure/tableau/visualization/${id}`, undefined, signal);

/** GET /rest/secure/tableau/token?targetSite= (000 §7): a trusted ticket, used once. */
export const getTableauToken = (targetSite: string, signal?: AbortSignal) =>
  apiGet<TableauToken>('/rest/secure/tableau/token', { targetSite: targetSite || undefined }, signal);

/**
 * The visualization and a fresh ticket for its site, as one query: a ticket is redeemed once, so it is never
 * reused from the cache (staleTime 0, no retry of a used one).
 */
export const visualizationQueryOptions = (id: number) =>
  queryOptions({
    queryKey: dashboardKeys.visualization(id),
    queryFn: async ({ signal }) => {
      const visualization = await getVisualization(id, signal);
      const token = await getTableauToken(visualization.tableauSite, signal);
      return { visualization, token };
    },
    staleTime: 0,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });

export const useVisualization = (id: number) => useQuery(visualizationQueryOptions(id));

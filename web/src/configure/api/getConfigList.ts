import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/apiClient';
import { configKeys } from './configKeys';
import type { ConfigRecord, ConfigResource } from './resources';

/** GET a configuration list (001 §7 getAll / list): every record, active or not (the tabs filter). */
export const getConfigList = <R extends ConfigRecord>(resource: ConfigResource<R, unknown>, signal?: AbortSignal) =>
  apiGet<R[]>(resource.list.url, resource.list.query, signal);

export const configListQueryOptions = <R extends ConfigRecord>(resource: ConfigResource<R, unknown>) =>
  queryOptions({ queryKey: configKeys.list(resource), queryFn: ({ signal }) => getConfigList(resource, signal) });

/** The list of a Configure tab. */
export function useConfigList<R extends ConfigRecord>(resource: ConfigResource<R, unknown>) {
  return useQuery(configListQueryOptions(resource));
}

import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/apiClient';
import { configKeys } from './configKeys';
import type { ConfigRecord, ConfigResource } from './resources';

/** GET one configuration record by id (001 §7), for its editor. */
export const getConfigRecord = <R extends ConfigRecord>(
  resource: ConfigResource<R, unknown>,
  id: number,
  signal?: AbortSignal,
) => apiGet<R>(resource.record(id), undefined, signal);

export const configRecordQueryOptions = <R extends ConfigRecord>(resource: ConfigResource<R, unknown>, id: number) =>
  queryOptions({
    queryKey: configKeys.record(resource, id),
    queryFn: ({ signal }) => getConfigRecord(resource, id, signal),
  });

/** The record, or nothing to load when `id` is null (add mode). */
export function useConfigRecord<R extends ConfigRecord>(resource: ConfigResource<R, unknown>, id: number | null) {
  return useQuery({ ...configRecordQueryOptions(resource, id ?? 0), enabled: id !== null });
}

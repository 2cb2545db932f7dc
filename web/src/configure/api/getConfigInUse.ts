import { queryOptions } from '@tanstack/react-query';
import { configKeys } from './configKeys';
import type { ConfigRecord, ConfigResource } from './resources';

/**
 * What references a record (001 §7 inUseBy*), loaded when the delete dialog opens and never served from the
 * cache (staleTime 0): the answer decides whether the deletion may go ahead.
 */
export const configInUseQueryOptions = <Refs>(resource: ConfigResource<ConfigRecord, Refs>, id: number) =>
  queryOptions({
    queryKey: configKeys.inUse(resource, id),
    queryFn: () => resource.inUse(id),
    staleTime: 0,
  });

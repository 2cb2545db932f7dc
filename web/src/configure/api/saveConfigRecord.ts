import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost, apiPut, type ApiResponse } from '../../lib/apiClient';
import type { MutationConfig } from '../../lib/reactQuery';
import { invalidateConfiguration } from './configKeys';
import type { ConfigRecord, ConfigResource } from './resources';

export interface SaveConfigRecordInput {
  /** The record being edited; null creates one. */
  id: number | null;
  body: unknown;
}

/**
 * POST (create) or PUT (update) a configuration record (001 §7). 2xx answers the record; 304 is 'no changes'
 * (001 §8); a refusal rejects with the ApiError (422 fieldErrors / globalErrors, 403).
 */
export function saveConfigRecord<R extends ConfigRecord>(
  resource: ConfigResource<R, unknown>,
  { id, body }: SaveConfigRecordInput,
): Promise<ApiResponse<R>> {
  return id === null ? apiPost<R>(resource.create, body) : apiPut<R>(resource.update(id), body);
}

/** The save mutation; a change (not a 304) invalidates the configuration and the lists built from it. */
export function useSaveConfigRecord<R extends ConfigRecord>(
  resource: ConfigResource<R, unknown>,
  {
    mutationConfig,
  }: { mutationConfig?: MutationConfig<(input: SaveConfigRecordInput) => Promise<ApiResponse<R>>> } = {},
) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: (input: SaveConfigRecordInput) => saveConfigRecord(resource, input),
    onSuccess: (...args) => {
      if (args[0].status !== 304) void invalidateConfiguration(queryClient);
      return onSuccess?.(...args);
    },
  });
}

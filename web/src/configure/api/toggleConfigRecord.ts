import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPut, type ApiResponse } from '../../lib/apiClient';
import type { MutationConfig } from '../../lib/reactQuery';
import { invalidateConfiguration } from './configKeys';
import type { ConfigRecord, ConfigResource, ToggleAction } from './resources';

export interface ToggleConfigRecordInput {
  id: number;
  action: ToggleAction;
}

/**
 * PUT activate / deactivate (001 §7; 'Delete' is a deactivation, 001 §4). 200 answers the record; 304 means it
 * already was in that state, which the editors read differently per kind (see the kind descriptors).
 */
export function toggleConfigRecord<R extends ConfigRecord>(
  resource: ConfigResource<R, unknown>,
  { id, action }: ToggleConfigRecordInput,
): Promise<ApiResponse<R>> {
  return apiPut<R>(resource.toggle(id, action));
}

/** The toggle mutation; a change (not a 304) invalidates the configuration and the lists built from it. */
export function useToggleConfigRecord<R extends ConfigRecord>(
  resource: ConfigResource<R, unknown>,
  {
    mutationConfig,
  }: { mutationConfig?: MutationConfig<(input: ToggleConfigRecordInput) => Promise<ApiResponse<R>>> } = {},
) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: (input: ToggleConfigRecordInput) => toggleConfigRecord(resource, input),
    onSuccess: (...args) => {
      if (args[0].status !== 304) void invalidateConfiguration(queryClient);
      return onSuccess?.(...args);
    },
  });
}

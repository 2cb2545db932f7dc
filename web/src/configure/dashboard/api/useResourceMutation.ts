import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiResponse } from '../../../lib/apiClient';
import type { MutationConfig } from '../../../lib/reactQuery';
import { invalidateResources } from './resourceKeys';

/**
 * A change of a dashboard resource (save, activate, deactivate, delete) as a mutation: what the screen adds in
 * `mutationConfig`, and after a change (not a 304) the resources, the dashboard's list and the audit trail
 * are refreshed, whoever called it.
 */
export function useResourceMutation<I, T>(
  mutationFn: (input: I) => Promise<ApiResponse<T>>,
  mutationConfig: MutationConfig<(input: I) => Promise<ApiResponse<T>>> = {},
) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig;
  return useMutation({
    ...rest,
    mutationFn,
    onSuccess: (...args) => {
      if (args[0].status !== 304) void invalidateResources(queryClient);
      return onSuccess?.(...args);
    },
  });
}

import { DASHBOARD_RESOURCE_PATHS, resourcePath } from '@portal/contract';
import { apiPut, request, type ApiResponse } from '../../../lib/apiClient';
import type { MutationConfig } from '../../../lib/reactQuery';
import { useResourceMutation } from './useResourceMutation';

/** Which resource: a category or an item. */
export type ResourceKind = 'category' | 'item';

export interface ChangeResourceInput {
  kind: ResourceKind;
  id: number;
  action: 'activate' | 'deactivate' | 'delete';
  /** The record's name, for the success and failure texts (not sent). */
  name: string;
}

/**
 * Activates, deactivates (PUT .../{action}/{id}) or deletes (DELETE .../{id}) a category or an item. 304 is
 * 'already in that state'; a refusal rejects with the ApiError (a category with active children: 'Resource
 * category has active child category(ies)', 001 §8).
 */
export function changeResource({ kind, id, action }: ChangeResourceInput): Promise<ApiResponse<unknown>> {
  const P = DASHBOARD_RESOURCE_PATHS;
  if (action === 'delete') return request('DELETE', resourcePath(kind === 'category' ? P.category : P.item, { id }));
  return apiPut(resourcePath(kind === 'category' ? P.categoryToggle : P.itemToggle, { id, action }));
}

/** The activate / deactivate / delete mutation. */
export const useChangeResource = ({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof changeResource> } = {}) =>
  useResourceMutation(changeResource, mutationConfig);

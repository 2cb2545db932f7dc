import {
  DASHBOARD_RESOURCE_PATHS,
  resourcePath,
  type ResourceCategory,
  type ResourceCategoryBody,
} from '@portal/contract';
import { apiPost, apiPut, type ApiResponse } from '../../../lib/apiClient';
import type { MutationConfig } from '../../../lib/reactQuery';
import { useResourceMutation } from './useResourceMutation';

export interface SaveResourceCategoryInput {
  /** The category being edited; null creates one. */
  id: number | null;
  body: ResourceCategoryBody;
}

/**
 * POST (create) or PUT (update) a resource category. 2xx answers the category; 304 is 'no changes'; a refusal
 * rejects with the ApiError (422 fieldErrors / globalErrors, e.g. 'Resource category has active child
 * category(ies)' when deactivating).
 */
export const saveResourceCategory = ({
  id,
  body,
}: SaveResourceCategoryInput): Promise<ApiResponse<ResourceCategory>> =>
  id === null
    ? apiPost<ResourceCategory>(DASHBOARD_RESOURCE_PATHS.categories, body)
    : apiPut<ResourceCategory>(resourcePath(DASHBOARD_RESOURCE_PATHS.category, { id }), body);

/** The save mutation of a category. */
export const useSaveResourceCategory = ({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof saveResourceCategory> } = {}) =>
  useResourceMutation(saveResourceCategory, mutationConfig);

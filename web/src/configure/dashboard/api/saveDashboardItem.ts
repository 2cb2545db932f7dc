import {
  DASHBOARD_ITEM_PARTS,
  DASHBOARD_RESOURCE_PATHS,
  resourcePath,
  type DashboardItem,
  type DashboardItemBody,
} from '@portal/contract';
import { request, type ApiResponse } from '../../../lib/apiClient';
import type { MutationConfig } from '../../../lib/reactQuery';
import { useResourceMutation } from './useResourceMutation';

export interface SaveDashboardItemInput {
  /** The item being edited; null creates one. */
  id: number | null;
  /** The JSON part; the server applies its own link rules (http only outside production). */
  item: Omit<DashboardItemBody, 'url'> & { url: string };
  /** A DOWNLOAD's file or an ELEARNING's .zip: on update only when replaced. */
  file: File | null;
  /** A new picture. */
  image: File | null;
}

/** Uploads of packages take longer than an ordinary call. */
const UPLOAD_TIMEOUT_MS = 15 * 60_000;

/**
 * POST (create) or PUT (update) a dashboard item as multipart/form-data: the `item` part (JSON) first, then the
 * optional `file` and `image` parts (docs/api.md Dashboard resources). 2xx answers the item; 304 'no changes';
 * a refusal rejects with the ApiError (422 with the spec's keys, e.g. url protocolRequired, file
 * notCompressedFile or noIndexOrStoryFile, image notImage).
 */
export function saveDashboardItem({
  id,
  item,
  file,
  image,
}: SaveDashboardItemInput): Promise<ApiResponse<DashboardItem>> {
  const body = new FormData();
  body.append(DASHBOARD_ITEM_PARTS.item, JSON.stringify(item));
  if (file) body.append(DASHBOARD_ITEM_PARTS.file, file, file.name);
  if (image) body.append(DASHBOARD_ITEM_PARTS.image, image, image.name);
  const path = id === null ? DASHBOARD_RESOURCE_PATHS.items : resourcePath(DASHBOARD_RESOURCE_PATHS.item, { id });
  return request<DashboardItem>(id === null ? 'POST' : 'PUT', path, { body, timeoutMs: UPLOAD_TIMEOUT_MS });
}

/** The save mutation of an item. */
export const useSaveDashboardItem = ({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof saveDashboardItem> } = {}) =>
  useResourceMutation(saveDashboardItem, mutationConfig);

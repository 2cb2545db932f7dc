import { LOAD_ALL_SIZE, type Page } from '@portal/contract';
import { apiGet } from './apiClient';

/**
 * Every row of a paged list (000 §3 Page info), for a table that sorts and filters in the browser: the load-all
 * call (000 §9: page 1, size 1,000,000), which the API answers whole, streamed from one snapshot.
 * @throws ApiError as `apiGet` does.
 */
export async function readEveryPage<T>(
  path: string,
  query: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<T[]> {
  return (await apiGet<Page<T>>(path, { ...query, page: '1', size: String(LOAD_ALL_SIZE) }, signal)).content;
}

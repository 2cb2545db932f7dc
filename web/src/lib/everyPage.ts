import { MAX_FETCH_SIZE, type Page } from '@portal/contract';
import { apiGet } from './apiClient';

/**
 * Every row of a paged list (000 §3 Page info), for a table that sorts and filters in the browser: page 1, 2,
 * ... of the largest size the list serves, until an answer says it is the last. A row filed meanwhile pushes
 * an older one onto the next page, where it comes again: each id is kept once, at its first place.
 * @throws ApiError as `apiGet` does, for the first page that fails.
 */
export async function readEveryPage<T extends { id: number }>(
  path: string,
  query: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<T[]> {
  const rows = new Map<number, T>();
  for (let page = 1; ; page++) {
    const answer = await apiGet<Page<T>>(path, { ...query, page: String(page), size: String(MAX_FETCH_SIZE) }, signal);
    for (const row of answer.content) if (!rows.has(row.id)) rows.set(row.id, row);
    if (answer.last || answer.content.length === 0) return [...rows.values()];
  }
}

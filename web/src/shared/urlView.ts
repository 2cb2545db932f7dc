import { useDebouncedValue } from '@mantine/hooks';
import { CONSTANTS } from '@portal/contract';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';

/** Sets some of the URL's query parameters; null or '' removes one. */
export type UrlUpdate = (changes: Record<string, string | null>) => void;

/**
 * The view of a server-paged list kept in the URL (000 §9: page, size, sort and filter in the address, so
 * Back returns to the same view): the query parameters and `update`, which changes some of them in place of
 * the current history entry (no entry per keystroke or page).
 */
export function useUrlView(): { search: URLSearchParams; update: UrlUpdate } {
  const [search, setSearch] = useSearchParams();
  const update: UrlUpdate = (changes) =>
    setSearch(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(changes)) {
          if (v === null || v === '') next.delete(k);
          else next.set(k, v);
        }
        return next;
      },
      { replace: true },
    );
  return { search, update };
}

/** The page (from 1) and page size in the URL; a size that is not one of the spec's page sizes is `defaultSize`. */
export function pageFromUrl(search: URLSearchParams, defaultSize: number): { page: number; size: number } {
  return {
    page: Math.max(1, Number(search.get('page')) || 1),
    size: CONSTANTS.tablePageSizes.find((s) => s === Number(search.get('size'))) ?? defaultSize,
  };
}

/**
 * The filter box of a URL view: what is typed, written to the URL's `filter` (trimmed, back to page 1) once
 * typing pauses for the table filter debounce (000 §9: 500 ms). Returns the box's value and its setter.
 */
export function useUrlFilter(search: URLSearchParams, update: UrlUpdate) {
  const [filter, setFilter] = useState(search.get('filter') ?? '');
  const [debouncedFilter] = useDebouncedValue(filter.trim(), CONSTANTS.tableFilterDebounceMs);
  useEffect(() => {
    if ((search.get('filter') ?? '') !== debouncedFilter) update({ filter: debouncedFilter, page: null });
    // Only a new debounced filter writes the URL (and goes back to page 1), not every URL change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debouncedFilter]);
  return [filter, setFilter] as const;
}

/**
 * The paging props of a `ServerDataTable` on a URL view: the page's records and the total from the answer,
 * the page and size, written back to the URL (a new size goes back to page 1; the default size is left out).
 */
export function urlPaging<T>(
  data: { content: T[]; totalElements: number } | undefined,
  view: { page: number; size: number },
  update: UrlUpdate,
  defaultSize: number,
) {
  return {
    records: data?.content ?? [],
    totalRecords: data?.totalElements ?? 0,
    page: view.page,
    onPageChange: (p: number) => update({ page: String(p) }),
    recordsPerPage: view.size,
    onRecordsPerPageChange: (s: number) => update({ size: s === defaultSize ? null : String(s), page: null }),
  };
}

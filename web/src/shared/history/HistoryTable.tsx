import type { DataTableColumn } from 'mantine-datatable';
import { useCallback } from 'react';
import { ClientDataTable } from '../DataTable';

const SUBMITTED: readonly string[] = ['sysdat'];

/**
 * A Requests History table with a filter box (000 §2 User detail / Profile, 001 §2.9): all rows in the browser,
 * newest first. The filter reads `cells` (a row's text as shown), and each column sorts by its cell, the dates
 * (`dateKeys`) by their ISO value.
 */
export function HistoryTable<T extends { sysdat: string }>({
  label,
  cells,
  dateKeys = SUBMITTED,
  ...table
}: {
  /** The table's accessible name, e.g. 'Access requests'; its filter box is 'Filter access requests'. */
  label: string;
  records: T[] | undefined;
  fetching: boolean;
  columns: DataTableColumn<T>[];
  /** A row's cells as text, by column accessor (stable across renders while they read the same data). */
  cells: (record: T) => Record<string, string>;
  /** The columns of dates (a module constant). */
  dateKeys?: readonly string[];
}) {
  const filterText = useCallback((r: T) => Object.values(cells(r)).join(' '), [cells]);
  const sortValue = useCallback(
    (r: T, key: string) => (dateKeys.includes(key) ? r[key as keyof T] : cells(r)[key]),
    [cells, dateKeys],
  );
  return (
    <ClientDataTable<T>
      {...table}
      ariaLabel={label}
      filterLabel={`Filter ${label.toLowerCase()}`}
      filterText={filterText}
      sortValue={sortValue}
      initialSort={{ columnAccessor: 'sysdat', direction: 'desc' }}
    />
  );
}

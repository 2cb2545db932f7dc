import { Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { CONSTANTS, MESSAGES } from '@portal/contract';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from 'mantine-datatable';
import { useMemo, useState } from 'react';
import classes from './DataTable.module.css';
import { compareValues } from './format';

/**
 * The spec's data table (000 §2 Shared widgets): paginated, sortable, filterable, 'No records found' when
 * empty, 'Searching' while loading, counter line 'X of Y records shown'. Built on mantine-datatable. Below
 * 768 px the rows stack into 'label value' cards (`DataTable.module.css`), so no column is cut off on a phone.
 */

const PAGE_SIZES: number[] = [...CONSTANTS.tablePageSizes];

function SearchingLoader() {
  return (
    <Group gap="xs" role="status">
      <Loader size="sm" />
      <Text size="sm">{MESSAGES.tables.loading}</Text>
    </Group>
  );
}

const commonProps = {
  withTableBorder: true,
  borderRadius: 'sm',
  striped: true,
  highlightOnHover: true,
  minHeight: 180,
  verticalAlign: 'top',
  noRecordsText: MESSAGES.tables.empty,
  loadingText: MESSAGES.tables.loading,
  customLoader: <SearchingLoader />,
  recordsPerPageLabel: 'Records per page',
  paginationWrapBreakpoint: 'md',
} as const;

const counterText = (shown: number, total: number) => `${shown} of ${total} records shown`;

/** Each cell carries its column's title, which the stacked (phone) layout shows before the value. */
function labelled<T>(columns: DataTableColumn<T>[]): DataTableColumn<T>[] {
  return columns.map((c) => ({
    ...c,
    customCellAttributes: (record: T, index: number) => ({
      ...c.customCellAttributes?.(record, index),
      'data-label': typeof c.title === 'string' ? c.title : '',
    }),
  }));
}

export interface ServerDataTableProps<T> {
  ariaLabel: string;
  records: T[];
  columns: DataTableColumn<T>[];
  totalRecords: number;
  page: number;
  onPageChange: (page: number) => void;
  recordsPerPage: number;
  onRecordsPerPageChange: (size: number) => void;
  sortStatus: DataTableSortStatus<T>;
  onSortStatusChange: (status: DataTableSortStatus<T>) => void;
  fetching: boolean;
  onRowClick?: (record: T) => void;
  idAccessor?: keyof T & string;
  /** Narrower cell padding, for tables with many columns (the User Requests queue) to fit at 1280 px. */
  compact?: boolean;
}

/** A table whose paging and sorting happen on the server. */
export function ServerDataTable<T>(props: ServerDataTableProps<T>) {
  const { ariaLabel, onRowClick, idAccessor, records, totalRecords } = props;
  return (
    <DataTable<T>
      {...commonProps}
      aria-label={ariaLabel}
      className={classes.stacked}
      horizontalSpacing={props.compact ? 5 : undefined}
      idAccessor={idAccessor ?? ('id' as keyof T & string)}
      records={records}
      columns={labelled(props.columns)}
      totalRecords={totalRecords}
      page={props.page}
      onPageChange={props.onPageChange}
      recordsPerPage={props.recordsPerPage}
      recordsPerPageOptions={PAGE_SIZES}
      onRecordsPerPageChange={props.onRecordsPerPageChange}
      sortStatus={props.sortStatus}
      onSortStatusChange={props.onSortStatusChange}
      fetching={props.fetching}
      paginationText={() => counterText(records.length, totalRecords)}
      onRowClick={onRowClick ? ({ record }) => onRowClick(record) : undefined}
    />
  );
}

export interface ClientDataTableProps<T> {
  ariaLabel: string;
  records: T[] | undefined;
  columns: DataTableColumn<T>[];
  fetching?: boolean;
  /** Shows a filter box with this label; rows match when filterText(record) contains the words typed. */
  filterLabel?: string;
  filterText?: (record: T) => string;
  initialSort: DataTableSortStatus<T>;
  /** The value a column sorts by (defaults to the record's property named by the column accessor). */
  sortValue?: (record: T, columnAccessor: string) => unknown;
  onRowClick?: (record: T) => void;
  idAccessor?: keyof T & string;
  /** A checkbox column (000 §2 'optional checkbox column'): the selected rows, and each row's accessible name. */
  selection?: { selected: T[]; onChange: (selected: T[]) => void; rowLabel: (record: T) => string };
}

/** A table holding all its rows in the browser: filter (500 ms debounce), sort and paging happen here. */
export function ClientDataTable<T>(props: ClientDataTableProps<T>) {
  const { ariaLabel, filterLabel, filterText, sortValue, onRowClick, idAccessor } = props;
  const [filter, setFilter] = useState('');
  const [debouncedFilter] = useDebouncedValue(filter, CONSTANTS.tableFilterDebounceMs);
  const [sortStatus, setSortStatus] = useState(props.initialSort);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(PAGE_SIZES[0] ?? 10);

  const filtered = useMemo(() => {
    const all = props.records ?? [];
    const words = debouncedFilter.trim().toLowerCase().split(/\s+/).filter(Boolean);
    const matching =
      words.length && filterText
        ? all.filter((r) => {
            const text = filterText(r).toLowerCase();
            return words.every((w) => text.includes(w));
          })
        : all;
    const key = String(sortStatus.columnAccessor);
    const valueOf = (r: T) => (sortValue ? sortValue(r, key) : (r as Record<string, unknown>)[key]);
    const sorted = [...matching].sort((a, b) => compareValues(valueOf(a), valueOf(b)));
    return sortStatus.direction === 'desc' ? sorted.reverse() : sorted;
  }, [props.records, debouncedFilter, filterText, sortStatus, sortValue]);

  const lastPage = Math.max(1, Math.ceil(filtered.length / pageSize));
  const currentPage = Math.min(page, lastPage);
  const pageRecords = filtered.slice((currentPage - 1) * pageSize, currentPage * pageSize);

  return (
    <Stack gap="sm">
      {filterLabel && (
        <TextInput
          label={filterLabel}
          placeholder="Type to filter"
          value={filter}
          onChange={(e) => {
            setFilter(e.currentTarget.value);
            setPage(1);
          }}
          maw={360}
        />
      )}
      <DataTable<T>
        {...commonProps}
        aria-label={ariaLabel}
        className={classes.stacked}
        idAccessor={idAccessor ?? ('id' as keyof T & string)}
        records={pageRecords}
        columns={labelled(props.columns)}
        fetching={props.fetching}
        totalRecords={filtered.length}
        page={currentPage}
        onPageChange={setPage}
        recordsPerPage={pageSize}
        recordsPerPageOptions={PAGE_SIZES}
        onRecordsPerPageChange={(size) => {
          setPageSize(size);
          setPage(1);
        }}
        sortStatus={sortStatus}
        onSortStatusChange={(s) => {
          setSortStatus(s);
          setPage(1);
        }}
        paginationText={() => counterText(pageRecords.length, filtered.length)}
        onRowClick={onRowClick ? ({ record }) => onRowClick(record) : undefined}
        {...(props.selection && {
          selectedRecords: props.selection.selected,
          onSelectedRecordsChange: props.selection.onChange,
          getRecordSelectionCheckboxProps: (record: T) => ({ 'aria-label': props.selection!.rowLabel(record) }),
          allRecordsSelectionCheckboxProps: { 'aria-label': 'Select all rows on this page' },
        })}
      />
    </Stack>
  );
}

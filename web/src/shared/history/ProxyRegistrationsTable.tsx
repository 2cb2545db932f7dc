import { Text } from '@mantine/core';
import type { Registration, System } from '@portal/contract';
import type { DataTableColumn } from 'mantine-datatable';
import { useCallback } from 'react';
import { statusLabel } from '../StatusBadge';
import { DateTimeCell } from '../TableCells';
import { MISSING, formatDateTime, orMissing } from '../format';
import { useSystems } from '../referenceData';
import { HistoryTable } from './HistoryTable';
import { blockCells, blockColumns, dateSubmittedColumn, statusColumn } from './historyColumns';

/** 'number ext. extension', the number alone, or '---' (001 §2.9: phone with extension). */
export const phoneWithExtension = (r: Pick<Registration, 'phoneNumber' | 'phoneExtension'>) =>
  !r.phoneNumber.trim()
    ? MISSING
    : r.phoneExtension.trim()
      ? `${r.phoneNumber} ext. ${r.phoneExtension}`
      : r.phoneNumber;

/**
 * Text that may break anywhere (an email has no spaces): ten columns fit at 1280 px only when no cell insists
 * on its whole width (issue 9: no sideways scrolling).
 */
function WrappingText({ text }: { text: string }) {
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      {orMissing(text)}
    </Text>
  );
}

/** A deleted registration is not listed by the API; DENIED stands in should one arrive. */
const shownStatus = (r: Registration) => (r.registrationStatus === 'DELETED' ? 'DENIED' : r.registrationStatus);

const DATES = ['sysdat', 'dchng'];

/** The cells of one registration row, as text (the filter and the sort read them). */
function cells(r: Registration, systems: System[] | undefined): Record<string, string> {
  const { roles, sites, studies, systems: systemsText } = blockCells(r.accessControls, systems);
  return {
    sysdat: formatDateTime(r.sysdat),
    status: statusLabel(shownStatus(r)),
    name: orMissing(`${r.firstName} ${r.lastName}`.trim()),
    sites,
    studies,
    email: orMissing(r.email),
    phone: phoneWithExtension(r),
    roles,
    systems: systemsText,
    dchng: formatDateTime(r.dchng),
  };
}

/**
 * The registration-by-proxy requests of a Requests History (001 §2.9; 000 §2 User detail): the users this
 * user asked for ('Request a User'), newest first, with a filter box. Columns are 001 §2.9's: date submitted,
 * name, site or LAO codes, studies, email, phone with extension, study role, systems, registration status
 * (shown second as a badge, as in the other tables), date last modified; '---' for missing values.
 */
export function ProxyRegistrationsTable({
  records,
  fetching,
}: {
  records: Registration[] | undefined;
  fetching: boolean;
}) {
  const systems = useSystems();
  const rowCells = useCallback((r: Registration) => cells(r, systems.data), [systems.data]);
  const blocks = blockColumns<Registration>(systems.data, { roles: 'Roles Requested', systems: 'Systems Requested' });
  const columns: DataTableColumn<Registration>[] = [
    dateSubmittedColumn(),
    statusColumn('Registration Status', shownStatus),
    {
      accessor: 'name',
      title: 'Name',
      sortable: true,
      render: (r) => <WrappingText text={`${r.firstName} ${r.lastName}`.trim()} />,
    },
    blocks.sites,
    blocks.studies,
    { accessor: 'email', title: 'Email', render: (r) => <WrappingText text={r.email} /> },
    { accessor: 'phone', title: 'Phone', render: (r) => phoneWithExtension(r) },
    blocks.roles,
    blocks.systems,
    { accessor: 'dchng', title: 'Last Modified', sortable: true, render: (r) => <DateTimeCell value={r.dchng} /> },
  ];
  return (
    <HistoryTable<Registration>
      label="Registration-by-proxy requests"
      records={records}
      fetching={fetching}
      columns={columns}
      cells={rowCells}
      dateKeys={DATES}
    />
  );
}

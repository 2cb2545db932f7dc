import { Text } from '@mantine/core';
import type { Registration, System } from '@portal/contract';
import type { DataTableColumn } from 'mantine-datatable';
import { useCallback } from 'react';
import { CondensedList } from '../CondensedList';
import { ClientDataTable } from '../DataTable';
import { StatusBadge, statusLabel } from '../StatusBadge';
import { DateTimeCell } from '../TableCells';
import { MISSING, formatDateTime, joinOrMissing, orMissing } from '../format';
import { systemNames, useSystems } from '../referenceData';

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

/** The cells of one registration row, as text (the filter and the sort read them). */
function cells(r: Registration, systems: System[] | undefined) {
  const blocks = r.accessControls;
  return {
    sysdat: formatDateTime(r.sysdat),
    status: statusLabel(r.registrationStatus === 'DELETED' ? 'DENIED' : r.registrationStatus),
    name: orMissing(`${r.firstName} ${r.lastName}`.trim()),
    sites: joinOrMissing(blocks.flatMap((b) => [...b.laoIds, ...b.siteCodes])),
    studies: joinOrMissing(blocks.flatMap((b) => b.studyNames)),
    email: orMissing(r.email),
    phone: phoneWithExtension(r),
    roles: joinOrMissing(blocks.map((b) => b.roleName)),
    systems: joinOrMissing([...new Set(blocks.flatMap((b) => systemNames(b.systemAccessIds, systems)))]),
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
  const filterText = useCallback((r: Registration) => Object.values(cells(r, systems.data)).join(' '), [systems.data]);
  const sortValue = useCallback(
    (r: Registration, key: string) =>
      key === 'sysdat' || key === 'dchng' ? r[key] : cells(r, systems.data)[key as keyof ReturnType<typeof cells>],
    [systems.data],
  );
  const columns: DataTableColumn<Registration>[] = [
    { accessor: 'sysdat', title: 'Date Submitted', sortable: true, render: (r) => <DateTimeCell value={r.sysdat} /> },
    {
      accessor: 'status',
      title: 'Registration Status',
      sortable: true,
      // A deleted registration is not listed by the API; DENIED stands in should one arrive.
      render: (r) => <StatusBadge status={r.registrationStatus === 'DELETED' ? 'DENIED' : r.registrationStatus} />,
    },
    {
      accessor: 'name',
      title: 'Name',
      sortable: true,
      render: (r) => <WrappingText text={`${r.firstName} ${r.lastName}`.trim()} />,
    },
    {
      accessor: 'sites',
      title: 'LAOs / AOs',
      render: (r) => (
        <CondensedList
          items={r.accessControls.flatMap((b) => [...b.laoIds, ...b.siteCodes])}
          noun={['site', 'sites']}
        />
      ),
    },
    {
      accessor: 'studies',
      title: 'Study(s)',
      render: (r) => (
        <CondensedList items={r.accessControls.flatMap((b) => b.studyNames)} noun={['study', 'studies']} />
      ),
    },
    { accessor: 'email', title: 'Email', render: (r) => <WrappingText text={r.email} /> },
    { accessor: 'phone', title: 'Phone', render: (r) => phoneWithExtension(r) },
    {
      accessor: 'roles',
      title: 'Roles Requested',
      render: (r) => <CondensedList items={r.accessControls.map((b) => b.roleName)} noun={['role', 'roles']} />,
    },
    {
      accessor: 'systems',
      title: 'Systems Requested',
      render: (r) => (
        <CondensedList
          items={[...new Set(r.accessControls.flatMap((b) => systemNames(b.systemAccessIds, systems.data)))]}
          noun={['system', 'systems']}
        />
      ),
    },
    { accessor: 'dchng', title: 'Last Modified', sortable: true, render: (r) => <DateTimeCell value={r.dchng} /> },
  ];
  return (
    <ClientDataTable<Registration>
      ariaLabel="Registration-by-proxy requests"
      records={records}
      fetching={fetching}
      columns={columns}
      filterLabel="Filter registration-by-proxy requests"
      filterText={filterText}
      sortValue={sortValue}
      initialSort={{ columnAccessor: 'sysdat', direction: 'desc' }}
    />
  );
}

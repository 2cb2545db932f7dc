import { REQUEST_STATUS_LABELS, type ProfileChangeRequest } from '@portal/contract';
import type { DataTableColumn } from 'mantine-datatable';
import { ClientDataTable } from '../DataTable';
import { CondensedText, BoundedText } from '../TableCells';
import { MISSING } from '../format';
import { commentColumns, dateSubmittedColumn, statusColumn } from './historyColumns';

/** The requested email when it differs from the one the user had, otherwise none (the column is a change). */
const emailChange = (r: ProfileChangeRequest) =>
  r.email && r.email.toLowerCase() !== r.originalEmail.toLowerCase() ? r.email : MISSING;

/** Sort values by column: the date as its ISO text, the rest as shown. */
const SORT: Record<string, (r: ProfileChangeRequest) => string> = {
  sysdat: (r) => r.sysdat,
  status: (r) => REQUEST_STATUS_LABELS[r.requestStatus] ?? r.requestStatus,
  firstName: (r) => r.firstName,
  lastName: (r) => r.lastName,
  email: emailChange,
};

/**
 * The profile (name/email) change requests of a Requests History (000 §2 User detail, 001 §2.9): Date
 * Submitted first (newest first; the spec's columns have no date, and every other history table starts with
 * it), then the status, the requested first and last name, the requested email change, the comments;
 * reviewer comments only when `showReviewerComments`. No filter box (001 §2.9 gives this section none).
 */
export function ProfileChangeRequestsTable({
  records,
  fetching,
  showReviewerComments,
}: {
  records: ProfileChangeRequest[] | undefined;
  fetching: boolean;
  showReviewerComments: boolean;
}) {
  const columns: DataTableColumn<ProfileChangeRequest>[] = [
    dateSubmittedColumn(),
    statusColumn('Request Status', (r) => r.requestStatus),
    {
      accessor: 'firstName',
      title: 'Requested First Name',
      sortable: true,
      render: (r) => <BoundedText text={r.firstName} />,
    },
    {
      accessor: 'lastName',
      title: 'Requested Last Name',
      sortable: true,
      render: (r) => <BoundedText text={r.lastName} />,
    },
    {
      accessor: 'email',
      title: 'Requested Email Change',
      sortable: true,
      render: (r) => <BoundedText text={emailChange(r)} />,
    },
    ...commentColumns<ProfileChangeRequest>((r) => <CondensedText text={r.requesterComments} />, showReviewerComments),
  ];
  return (
    <ClientDataTable<ProfileChangeRequest>
      ariaLabel="Profile change requests"
      records={records}
      fetching={fetching}
      columns={columns}
      sortValue={(r, key) => SORT[key]?.(r)}
      initialSort={{ columnAccessor: 'sysdat', direction: 'desc' }}
    />
  );
}

import { REQUEST_STATUS_LABELS, REQUEST_TYPE_LABELS, type AccessModRequest, type System } from '@portal/contract';
import type { DataTableColumn } from 'mantine-datatable';
import { useCallback } from 'react';
import { OpenStageLine, openStageText } from '../approval/StagesPanel';
import { formatDateTime, orMissing } from '../format';
import { useSystems } from '../referenceData';
import { useProxyCommentMarkers } from '../portalSettings';
import { proxyNote, RequesterCommentCell, shownRequesterComment } from '../requesterComment';
import { HistoryTable } from './HistoryTable';
import { blockCells, blockColumns, commentColumns, dateSubmittedColumn, statusColumn } from './historyColumns';

/** The requester comment as the cell shows it: the proxy's note, then the comment. */
function requesterCommentText(r: AccessModRequest, markers: readonly string[] | null) {
  const { comment, proxyName } = shownRequesterComment(r, markers);
  return proxyName ? `${proxyNote(proxyName)} ${orMissing(comment)}` : orMissing(comment);
}

/** The cells of one access request row, as text (the filter and the sort read them). */
function cells(
  r: AccessModRequest,
  systems: System[] | undefined,
  markers: readonly string[] | null,
  showReviewerComments: boolean,
): Record<string, string> {
  return {
    dateSubmitted: formatDateTime(r.sysdat),
    requestType: REQUEST_TYPE_LABELS[r.requestType] ?? r.requestType,
    ...blockCells(r.accessControls, systems),
    requesterComments: requesterCommentText(r, markers),
    ...(showReviewerComments ? { reviewerComments: orMissing(r.reviewerComments) } : {}),
    status: [REQUEST_STATUS_LABELS[r.requestStatus] ?? r.requestStatus, openStageText(r.approval)]
      .filter(Boolean)
      .join(' '),
  };
}

/**
 * The access requests of a Requests History (000 §2 User detail / Profile, 001 §2.9): newest first, a filter
 * box, '---' for missing values; the reviewer's comments only when `showReviewerComments` (hidden on one's
 * own history). Status second as a badge, long lists and comments condensed (issue 9: no sideways scroll); a
 * proxy-filed request's comment without its marker, under who filed it by proxy.
 */
export function AccessRequestsTable({
  records,
  fetching,
  showReviewerComments,
}: {
  records: AccessModRequest[] | undefined;
  fetching: boolean;
  showReviewerComments: boolean;
}) {
  const systems = useSystems();
  const markers = useProxyCommentMarkers(!!records?.some((r) => r.isProxyRequest));
  const rowCells = useCallback(
    (r: AccessModRequest) => cells(r, systems.data, markers, showReviewerComments),
    [systems.data, markers, showReviewerComments],
  );
  const text = (key: string) => (r: AccessModRequest) => rowCells(r)[key];
  const blocks = blockColumns<AccessModRequest>(systems.data, { roles: 'Study Role(s)', systems: 'Systems' });
  const columns: DataTableColumn<AccessModRequest>[] = [
    dateSubmittedColumn(),
    // Approval policies: 'Pending Review' stays the status; the open stage is a line under it.
    statusColumn(
      'Request Status',
      (r) => r.requestStatus,
      (r) => <OpenStageLine approval={r.approval} />,
    ),
    { accessor: 'requestType', title: 'Request Type', sortable: true, render: text('requestType') },
    { ...blocks.roles, sortable: true },
    blocks.sites,
    blocks.studies,
    blocks.systems,
    ...commentColumns<AccessModRequest>((r) => <RequesterCommentCell request={r} />, showReviewerComments),
  ];
  return (
    <HistoryTable<AccessModRequest>
      label="Access requests"
      records={records}
      fetching={fetching}
      columns={columns}
      cells={rowCells}
    />
  );
}

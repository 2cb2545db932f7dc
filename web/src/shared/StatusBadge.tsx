import { Badge } from '@mantine/core';
import { REQUEST_STATUS_LABELS, type RequestStatus } from '@portal/contract';

/** Colours by meaning: resolved good / bad, waiting on someone, new. All pass AA in the theme's light variant. */
const COLORS: Record<RequestStatus, string> = {
  NEW: 'blue',
  IN_PROGRESS: 'violet',
  PENDING_REVIEW: 'yellow',
  PENDING_OUTSIDE_ACTION: 'orange',
  APPROVED: 'green',
  REJECTED: 'red',
};

/** A request's status (001 §3 Request statuses) as a badge with its label: the first thing a table row shows. */
export function StatusBadge({ status }: { status: RequestStatus }) {
  return (
    <Badge color={COLORS[status]} variant="light" radius="sm" tt="none" style={{ whiteSpace: 'nowrap' }}>
      {REQUEST_STATUS_LABELS[status] ?? status}
    </Badge>
  );
}

import { Badge } from '@mantine/core';
import { REGISTRATION_STATUS_LABELS, REQUEST_STATUS_LABELS, type UserRequestStatus } from '@portal/contract';

/** Colours by meaning: resolved good / bad, waiting on someone, new. All pass AA in the theme's light variant. */
const COLORS: Record<UserRequestStatus, string> = {
  NEW: 'blue',
  IN_PROGRESS: 'violet',
  PENDING_REVIEW: 'yellow',
  PENDING_OUTSIDE_ACTION: 'orange',
  APPROVED: 'green',
  REJECTED: 'red',
  // A registration's own statuses (001 §4 Registration status): waiting on a reviewer, refused.
  PENDING: 'yellow',
  DENIED: 'red',
};

/** The label of a request's (001 §3) or a registration's (001 §4) status. */
export function statusLabel(status: UserRequestStatus): string {
  return (
    (REQUEST_STATUS_LABELS as Record<string, string>)[status] ??
    (REGISTRATION_STATUS_LABELS as Record<string, string>)[status] ??
    status
  );
}

/**
 * A request's or a registration's status as a badge with its label: the first thing a table row shows
 * (the Requests History and the User Requests queue).
 */
export function StatusBadge({ status }: { status: UserRequestStatus }) {
  return (
    <Badge color={COLORS[status]} variant="light" radius="sm" tt="none" style={{ whiteSpace: 'nowrap' }}>
      {statusLabel(status)}
    </Badge>
  );
}

import { Alert } from '@mantine/core';
import { PROFILE_CHANGE_MESSAGES } from '@portal/contract';
import { formatDateTime } from '../../../shared/format';
import { useOutstandingProfileChange } from '../api/ownProfileChange';

/**
 * The Profile's outstanding-request warning banner (000 §2 Profile screen; 000 §5 one outstanding name/email
 * request at a time): shown while the user's profile-change request is unresolved.
 */
export function OutstandingRequestBanner() {
  const { outstanding } = useOutstandingProfileChange();
  if (!outstanding) return null;
  return (
    <Alert color="yellow" title="Outstanding request" role="status" data-testid="outstanding-request-banner">
      {PROFILE_CHANGE_MESSAGES.outstanding} Requested on {formatDateTime(outstanding.sysdat)}: {outstanding.firstName}{' '}
      {outstanding.lastName}, {outstanding.email}.
    </Alert>
  );
}

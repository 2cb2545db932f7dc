import { Stack } from '@mantine/core';
import { REGISTRATION_MESSAGES } from '@portal/contract';
import { useParams } from 'react-router-dom';
import { useHasPermissions } from '../../../lib/sessionQueries';
import { LoadError } from '../../../shared/ErrorAlert';
import { PageLoader } from '../../../shared/PageLoader';
import { useSystems } from '../../../shared/referenceData';
import { ReviewShell } from '../../shared/review/ReviewShell';
import { useCarriedReload } from '../../shared/review/useCarriedReload';
import { useAccountTypes } from '../api/getAccountTypes';
import { useAssignablePortalRoles } from '../../shared/api/getPortalRoles';
import { useRegistration } from '../api/getRegistration';
import { PendingUserForm } from './PendingUserForm';
import type { PendingUserValues } from './pendingUserForm';
import { RegistrationDetails } from './RegistrationDetails';

const TITLE = 'Review Pending User';
const TEXTS = {
  invalidId: 'There is no user registration with this id.',
  loadFailed: REGISTRATION_MESSAGES.loadUserFailed,
};

/**
 * Review Pending User /app/user-requests/registration/:id (001 §2.4): READ_USERS sees the registration,
 * WRITE_USERS saves it, creates the user, rejects or deletes it. The form waits for the portal roles; the
 * account types are optional (001 §8: their failure is only logged, the contract's list stands in).
 */
export function ReviewRegistrationPage() {
  const id = Number(useParams().id);
  const canEdit = useHasPermissions('WRITE_USERS');
  const registration = useRegistration(id);
  const systems = useSystems();
  const portalRoles = useAssignablePortalRoles();
  const accountTypes = useAccountTypes();
  // What the reviewer chose before 'Reload request' (a stale refusal) is put back on the fresh version.
  const reload = useCarriedReload<PendingUserValues>(() => registration.refetch());

  return (
    <ReviewShell title={TITLE} id={id} request={registration} texts={TEXTS}>
      {(data) => {
        let form;
        if (portalRoles.error) {
          form = <LoadError text="Problem loading portal roles." onRetry={() => void portalRoles.refetch()} />;
        } else if (!portalRoles.data || accountTypes.isPending) {
          form = <PageLoader label="Loading the review form" />;
        } else {
          form = (
            <PendingUserForm
              key={`${data.id}-${data.versionno}`}
              registration={data}
              canEdit={canEdit}
              {...reload}
              portalRoles={portalRoles.data}
              accountTypes={accountTypes.data}
            />
          );
        }
        return (
          <Stack gap="md">
            <RegistrationDetails registration={data} systems={systems.data} />
            {form}
          </Stack>
        );
      }}
    </ReviewShell>
  );
}

import { Stack } from '@mantine/core';
import { PROFILE_CHANGE_MESSAGES, PROFILE_CHANGE_REVIEW_TITLE } from '@portal/contract';
import { useParams } from 'react-router-dom';
import { useHasPermissions } from '../../../lib/sessionQueries';
import { ReviewShell } from '../../shared/review/ReviewShell';
import { useCarriedReload } from '../../shared/review/useCarriedReload';
import { useProfileChangeRequest } from '../api/getProfileChangeRequest';
import { ProfileChangeDetails } from './ProfileChangeDetails';
import { ProfileChangeReviewForm, type ProfileChangeReviewValues } from './ProfileChangeReviewForm';

const TEXTS = {
  invalidId: 'There is no profile-change request with this id.',
  loadFailed: PROFILE_CHANGE_MESSAGES.loadFailed,
};

/**
 * The profile-change review /app/user-requests/profile-change/:id (001 §2.10; the route shape is not shown):
 * READ_USERS sees the request, WRITE_USERS saves status, reviewer comments and external ticket number.
 */
export function ReviewProfileChangePage() {
  const id = Number(useParams().id);
  const canEdit = useHasPermissions('WRITE_USERS');
  const request = useProfileChangeRequest(id);
  const reload = useCarriedReload<ProfileChangeReviewValues>(() => request.refetch());
  return (
    <ReviewShell title={PROFILE_CHANGE_REVIEW_TITLE} id={id} request={request} texts={TEXTS}>
      {(data) => (
        <Stack gap="md">
          <ProfileChangeDetails request={data} />
          <ProfileChangeReviewForm key={`${data.id}-${data.versionno}`} request={data} canEdit={canEdit} {...reload} />
        </Stack>
      )}
    </ReviewShell>
  );
}

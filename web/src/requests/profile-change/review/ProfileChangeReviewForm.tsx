import { Alert } from '@mantine/core';
import { MESSAGES, PROFILE_CHANGE_MESSAGES, type ProfileChangeRequest } from '@portal/contract';
import { ReviewFormShell } from '../../shared/review/ReviewFormShell';
import { StatusReviewFields } from '../../shared/review/StatusReviewFields';
import {
  statusReviewBody,
  useStatusReviewForm,
  type StatusReviewValues,
} from '../../shared/review/useStatusReviewForm';
import { useReviewProfileChangeRequest } from '../api/reviewProfileChangeRequest';

export type ProfileChangeReviewValues = StatusReviewValues;

/**
 * The editable part of the profile-change review (001 §2.10, §4): request status (the response's
 * allowedNextStatuses), Reviewer Comments and External Ticket #. A resolved status asks 'Confirm Request
 * Finalization/Closure' first; saved as Approved, the name and email take effect. Saving is `useReviewSave`
 * through `useStatusReviewForm` (success alert, back to the queue after 750 ms, 'Unsaved Changes' when leaving
 * with edits).
 */
export function ProfileChangeReviewForm({
  request,
  canEdit,
  onReload,
  carried,
}: {
  request: ProfileChangeRequest;
  canEdit: boolean;
  onReload: (kept: Partial<ProfileChangeReviewValues>) => void;
  carried?: Partial<ProfileChangeReviewValues>;
}) {
  const { form, readOnly, statusOptions, shell } = useStatusReviewForm({
    request,
    canEdit,
    extraValues: {},
    useEndpoint: useReviewProfileChangeRequest,
    toBody: (values: ProfileChangeReviewValues, attemptKey: string) => ({
      ...statusReviewBody(request, values),
      attemptKey,
    }),
    texts: {
      saved: PROFILE_CHANGE_MESSAGES.reviewSaved,
      failed: PROFILE_CHANGE_MESSAGES.reviewFailed,
      unsaved: MESSAGES.unsavedChanges.profileChangeReviewText,
    },
    fieldPrefix: '',
    onReload,
    carried,
    noPermissionText: PROFILE_CHANGE_MESSAGES.noPermission,
    finalization: (values) => ({
      effect:
        values.requestStatus === 'APPROVED'
          ? 'The requested name and email are applied to the user’s account and directory entry.'
          : undefined,
    }),
  });

  return (
    <ReviewFormShell {...shell}>
      {!readOnly && (
        <Alert color="yellow" variant="light">
          The name and email take effect only when the request is saved as Approved.
        </Alert>
      )}
      <StatusReviewFields form={form} statusOptions={statusOptions} readOnly={readOnly} />
    </ReviewFormShell>
  );
}

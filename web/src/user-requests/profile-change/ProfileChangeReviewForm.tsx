import { Alert, Select, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import {
  isResolved,
  PROFILE_CHANGE_MESSAGES,
  REQUEST_STATUS_LABELS,
  type ProfileChangeRequest,
  type RequestStatus,
} from '@portal/contract';
import { ReviewFormShell } from '../review/ReviewFormShell';
import { ReviewerFields } from '../review/ReviewerFields';
import { useReviewSave } from '../review/useReviewSave';
import { useReviewProfileChangeRequest } from './api/reviewProfileChangeRequest';

export interface ProfileChangeReviewValues {
  requestStatus: RequestStatus;
  reviewerComments: string;
  sysaidTicket: string;
}

const LABELS = {
  requestStatus: 'Request Status',
  reviewerComments: 'Reviewer Comments',
  sysaidTicket: 'External Ticket #',
} as const;

/**
 * The editable part of the profile-change review (001 §2.10, §4): request status (the response's
 * allowedNextStatuses), Reviewer Comments and External Ticket #. A resolved status asks 'Confirm Request
 * Finalization/Closure' first; saved as Approved, the name and email take effect. Saving is `useReviewSave`
 * (success alert, back to the queue after 750 ms, 'Unsaved Changes' when leaving with edits).
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
  const form = useForm<ProfileChangeReviewValues>({
    initialValues: {
      requestStatus: request.requestStatus,
      reviewerComments: request.reviewerComments,
      sysaidTicket: request.sysaidTicket,
    },
  });
  const resolved = isResolved(request.requestStatus) || request.allowedNextStatuses.length === 0;
  const review = useReviewSave({
    form,
    editable: canEdit && !resolved,
    useEndpoint: useReviewProfileChangeRequest,
    toBody: (values: ProfileChangeReviewValues, attemptKey: string) => ({
      id: request.id,
      versionno: request.versionno,
      requestStatus: values.requestStatus,
      reviewerComments: values.reviewerComments.trim(),
      sysaidTicket: values.sysaidTicket.trim(),
      attemptKey,
    }),
    resolves: (values) => isResolved(values.requestStatus),
    texts: { saved: PROFILE_CHANGE_MESSAGES.reviewSaved, failed: PROFILE_CHANGE_MESSAGES.reviewFailed },
    labels: LABELS,
    fieldPrefix: '',
    keepOnReload: ['reviewerComments', 'sysaidTicket'],
    onReload,
    carried,
  });
  const locked = resolved || review.savedResolved;
  const readOnly = !canEdit || locked;
  const statusOptions = [...new Set([request.requestStatus, ...request.allowedNextStatuses])].map((s) => ({
    value: s,
    label: REQUEST_STATUS_LABELS[s],
  }));

  const onSubmit = form.onSubmit((values) => {
    if (!isResolved(values.requestStatus)) return review.save(values);
    const approving = values.requestStatus === 'APPROVED';
    modals.openConfirmModal({
      title: 'Confirm Request Finalization/Closure',
      children: (
        <Text size="sm">
          Saving with the status &lsquo;{REQUEST_STATUS_LABELS[values.requestStatus]}&rsquo; finalizes and closes this
          request. It cannot be changed afterwards.
          {approving && ' The requested name and email are applied to the user’s account and directory entry.'} Do you
          want to continue?
        </Text>
      ),
      labels: { confirm: 'OK', cancel: 'Cancel' },
      onConfirm: () => review.save(values),
    });
  });

  return (
    <ReviewFormShell
      message={review.message}
      onCloseMessage={review.clearMessage}
      stale={review.stale}
      onReload={review.reload}
      locked={
        resolved &&
        `This request is resolved (${REQUEST_STATUS_LABELS[request.requestStatus]}) and can no longer be changed.`
      }
      readOnlyNotice={!canEdit && !locked && PROFILE_CHANGE_MESSAGES.noPermission}
      editable={!readOnly}
      saving={review.saving}
      onSubmit={onSubmit}
      onReset={() => {
        form.reset();
        review.clearMessage();
      }}
      dialogs={review.guardDialog}
    >
      {!readOnly && (
        <Alert color="yellow" variant="light">
          The name and email take effect only when the request is saved as Approved.
        </Alert>
      )}
      <Select
        label={LABELS.requestStatus}
        data={statusOptions}
        allowDeselect={false}
        readOnly={readOnly}
        variant={readOnly ? 'filled' : 'default'}
        maw={320}
        {...form.getInputProps('requestStatus')}
      />
      <ReviewerFields form={form} labels={LABELS} readOnly={readOnly} />
    </ReviewFormShell>
  );
}

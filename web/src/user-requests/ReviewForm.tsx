import { Select, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import {
  isResolved,
  MESSAGES,
  REQUEST_STATUS_LABELS,
  type AccessModRequest,
  type RequestStatus,
} from '@portal/contract';
import { useReviewAccessChangeRequest } from './api/reviewAccessChangeRequest';
import { ReviewFormShell } from './review/ReviewFormShell';
import { ReviewerFields } from './review/ReviewerFields';
import { useReviewSave } from './review/useReviewSave';

export interface ReviewValues {
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
 * The editable part of the Review Access Change Request screen (001 §2.8, §4): request status limited to the
 * response's allowedNextStatuses, Reviewer Comments (512) and External Ticket # (16). A resolved status asks
 * 'Confirm Request Finalization/Closure' first; a resolved request is locked. Saving is `useReviewSave`.
 */
export function ReviewForm({
  request,
  canEdit,
  onReload,
  carried,
}: {
  request: AccessModRequest;
  canEdit: boolean;
  /** Loads the request again after a stale save, keeping the reviewer's comments and ticket number. */
  onReload: (kept: Partial<ReviewValues>) => void;
  /** The comments and ticket number kept over a reload. */
  carried?: Partial<ReviewValues>;
}) {
  const form = useForm<ReviewValues>({
    initialValues: {
      requestStatus: request.requestStatus,
      reviewerComments: request.reviewerComments ?? '',
      sysaidTicket: request.sysaidTicket ?? '',
    },
  });
  const resolved = isResolved(request.requestStatus) || request.allowedNextStatuses.length === 0;
  const review = useReviewSave({
    form,
    editable: canEdit && !resolved,
    useEndpoint: useReviewAccessChangeRequest,
    toBody: (values: ReviewValues, attemptKey: string) => ({
      userAccessModificationRequest: {
        id: request.id,
        versionno: request.versionno,
        requestStatus: values.requestStatus,
        reviewerComments: values.reviewerComments.trim(),
        sysaidTicket: values.sysaidTicket.trim(),
      },
      attemptKey,
    }),
    resolves: (values) => isResolved(values.requestStatus),
    texts: { saved: MESSAGES.access.reviewSaved, failed: MESSAGES.access.reviewFailed },
    labels: LABELS,
    fieldPrefix: 'userAccessModificationRequest.',
    keepOnReload: ['reviewerComments', 'sysaidTicket'],
    onReload,
    carried,
  });
  const locked = resolved || review.savedResolved;
  const readOnly = !canEdit || locked;

  // The current status is always shown; the others are the response's allowedNextStatuses (001 §4).
  const statusOptions = [...new Set([request.requestStatus, ...request.allowedNextStatuses])].map((s) => ({
    value: s,
    label: REQUEST_STATUS_LABELS[s],
  }));

  const onSubmit = form.onSubmit((values) => {
    if (!isResolved(values.requestStatus)) return review.save(values);
    modals.openConfirmModal({
      title: 'Confirm Request Finalization/Closure',
      children: (
        <Text size="sm">
          Saving with the status &lsquo;{REQUEST_STATUS_LABELS[values.requestStatus]}&rsquo; finalizes and closes this
          request. It cannot be changed afterwards. Do you want to continue?
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
      readOnlyNotice={!canEdit && !locked && 'You do not have permission to modify access-change requests.'}
      editable={!readOnly}
      saving={review.saving}
      onSubmit={onSubmit}
      onReset={() => {
        form.reset();
        review.clearMessage();
      }}
      dialogs={review.guardDialog}
    >
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

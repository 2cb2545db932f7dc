import { Alert, Button, Group, Select, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import {
  isResolved,
  MESSAGES,
  REQUEST_STATUS_LABELS,
  type AccessModRequest,
  type PortalRole,
  type RequestStatus,
  type UserDetail,
} from '@portal/contract';
import { AccessBlocksEditor, type AccessReference } from '../shared/AccessBlocksEditor';
import {
  accessErrorsToForm,
  applyRequestedAccess,
  blocksFromRecords,
  requestedAccessApplied,
  toUserAccesses,
  type AccessBlock,
} from '../shared/accessBlocks';
import { useReviewAccessChangeRequest } from './api/reviewAccessChangeRequest';
import { PortalRoleChecklist } from './registration/PortalRoleChecklist';
import { ReviewFormShell } from './review/ReviewFormShell';
import { ReviewerFields } from './review/ReviewerFields';
import { useReviewSave } from './review/useReviewSave';

export interface ReviewValues {
  requestStatus: RequestStatus;
  reviewerComments: string;
  sysaidTicket: string;
  /** The user's portal roles (checkbox values). */
  portalRoleIds: string[];
  /** The user's current access as role blocks. */
  accessControls: AccessBlock[];
}

const LABELS = {
  requestStatus: 'Request Status',
  reviewerComments: 'Reviewer Comments',
  sysaidTicket: 'External Ticket #',
  portalRoleIds: 'Portal Roles',
} as const;
const FIELDS = Object.fromEntries(
  Object.entries(LABELS).map(([key, label]) => [key, { label, plural: key === 'portalRoleIds' }]),
);

/** 001 §2.8: the warning shown above everything that takes effect at once. */
export const IMMEDIATE_EFFECT_TEXT =
  "Changes to the user's current access or portal roles take effect immediately on saving, regardless of the request status.";
/** 001 §2.8 'Confirm Request Finalization/Closure': the extra warning when the requested access was never applied. */
export const NOT_APPLIED_TEXT =
  "The requested access has not been applied to the user's current access. Use 'Apply Above Changes' first if it should be granted: approving does not grant it by itself.";

/**
 * The editable part of the Review Access Change Request screen (001 §2.8, §4): the immediate-effect warning; the
 * user's current access as role blocks with 'Add new role' and 'Apply Above Changes' (replaces or adds the
 * requested role, or removes it for REMOVAL; saved only with 'Save Changes'); portal roles with descriptions and
 * permissions; the status (NEW only while NEW), Reviewer Comments (512, counter) and External Ticket # (16). A
 * resolved status asks 'Confirm Request Finalization/Closure' first (also warning when an approval's requested
 * access was never applied); a resolved request is locked. Saving is `useReviewSave` with the 000 §7 body.
 */
export function ReviewForm({
  request,
  subject,
  portalRoles,
  reference,
  canEdit,
  onReload,
  carried,
}: {
  request: AccessModRequest;
  /** The requested user: their portal roles and current access. */
  subject: UserDetail;
  portalRoles: PortalRole[];
  reference: AccessReference;
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
      portalRoleIds: subject.portalRoleIds.map(String),
      accessControls: blocksFromRecords(subject.userAccesses, reference.systems),
    },
  });
  const resolved = isResolved(request.requestStatus) || request.allowedNextStatuses.length === 0;
  const review = useReviewSave({
    form,
    editable: canEdit && !resolved,
    useEndpoint: useReviewAccessChangeRequest,
    toBody: (values: ReviewValues, attemptKey: string) => ({
      portalUser: { id: subject.id, portalRoleIds: values.portalRoleIds.map(Number) },
      userAccesses: toUserAccesses(values.accessControls, subject.id),
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
    mapErrors: (fieldErrors) =>
      accessErrorsToForm(fieldErrors, FIELDS, ['userAccessModificationRequest.', 'portalUser.']),
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
    const notApplied = values.requestStatus === 'APPROVED' && !requestedAccessApplied(values.accessControls, request);
    modals.openConfirmModal({
      title: 'Confirm Request Finalization/Closure',
      children: (
        <Stack gap="sm">
          {notApplied && (
            <Alert color="yellow" title="Requested access not applied">
              {NOT_APPLIED_TEXT}
            </Alert>
          )}
          <Text size="sm">
            Saving with the status &lsquo;{REQUEST_STATUS_LABELS[values.requestStatus]}&rsquo; finalizes and closes this
            request. It cannot be changed afterwards. Do you want to continue?
          </Text>
        </Stack>
      ),
      labels: { confirm: 'OK', cancel: 'Cancel' },
      onConfirm: () => review.save(values),
    });
  });

  const applyAbove = () =>
    form.setFieldValue('accessControls', applyRequestedAccess(form.values.accessControls, request, reference.systems));

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
      {!readOnly && (
        <Alert color="yellow" title="Changes take effect immediately" role="note">
          {IMMEDIATE_EFFECT_TEXT}
        </Alert>
      )}
      <Stack gap="sm" component="section" aria-labelledby="current-access-heading">
        <Group justify="space-between" wrap="wrap">
          <Title order={3} id="current-access-heading">
            Current Access of {subject.firstName} {subject.lastName}
          </Title>
          {!readOnly && (
            <Button variant="outline" onClick={applyAbove}>
              Apply Above Changes
            </Button>
          )}
        </Group>
        <AccessBlocksEditor
          value={form.values.accessControls}
          onChange={(blocks) => form.setFieldValue('accessControls', blocks)}
          errors={form.errors}
          onErrorsChange={(errors) => form.setErrors(errors as Record<string, string>)}
          reference={reference}
          readOnly={readOnly}
          emptyText="The user holds no access."
        />
      </Stack>
      <PortalRoleChecklist
        roles={portalRoles}
        value={form.values.portalRoleIds}
        onChange={(ids) => form.setFieldValue('portalRoleIds', ids)}
        error={form.errors.portalRoleIds as string | undefined}
        readOnly={readOnly}
      />
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

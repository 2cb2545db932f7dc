import { Alert, Button, Group, Stack, Title } from '@mantine/core';
import {
  APPROVAL_LIMITS,
  APPROVAL_TEXTS,
  MESSAGES,
  type AccessModRequest,
  type PortalRole,
  type UserDetail,
} from '@portal/contract';
import { CountedTextarea } from '../../../shared/CountedText';
import { AccessBlocksEditor } from '../../../shared/AccessBlocksEditor';
import type { EditorReference } from '../../../shared/useAccessReference';
import {
  accessErrorsToForm,
  applyRequestedAccess,
  blocksFromRecords,
  requestedAccessApplied,
  toUserAccesses,
  type AccessBlock,
} from '../../../shared/accessBlocks';
import { useReviewAccessChangeRequest } from '../api/reviewAccessChangeRequest';
import { PortalRoleChecklist } from '../../shared/review/PortalRoleChecklist';
import { ReviewFormShell } from '../../shared/review/ReviewFormShell';
import { StatusReviewFields } from '../../shared/review/StatusReviewFields';
import {
  STATUS_REVIEW_LABELS,
  statusReviewBody,
  useStatusReviewForm,
  type StatusReviewValues,
} from '../../shared/review/useStatusReviewForm';

export interface ReviewValues extends StatusReviewValues {
  /** The user's portal roles (checkbox values). */
  portalRoleIds: string[];
  /** The user's current access as role blocks. */
  accessControls: AccessBlock[];
  /** Approval policies: why User Support approves while approval stages are still open. */
  approvalOverride: string;
}

const LABELS = {
  ...STATUS_REVIEW_LABELS,
  portalRoleIds: 'Portal Roles',
  approvalOverride: APPROVAL_TEXTS.overrideLabel,
} as const;
const FIELDS = Object.fromEntries(
  Object.entries(LABELS).map(([key, label]) => [key, { label, plural: key === 'portalRoleIds' }]),
);

const STATUS_KEY = 'userAccessModificationRequest.requestStatus';

/** Approval policies: a stage of the request is still waiting or open (approving then needs an override). */
export const stagesOpen = (request: AccessModRequest) =>
  !!request.approval?.stages.some((s) => s.state === 'OPEN' || s.state === 'WAITING');

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
 * access was never applied); a resolved request is locked (`useStatusReviewForm`). Saving sends the 000 §7 body.
 * Approval policies: approving while approval stages are still open needs an 'Override justification', sent as
 * `approvalOverride`; the API's 422 'stagesOpen' is shown at the status.
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
  reference: EditorReference;
  canEdit: boolean;
  /** Loads the request again after a stale save, keeping the reviewer's comments and ticket number. */
  onReload: (kept: Partial<ReviewValues>) => void;
  /** The comments and ticket number kept over a reload. */
  carried?: Partial<ReviewValues>;
}) {
  const initial = {
    portalRoleIds: subject.portalRoleIds.map(String),
    accessControls: blocksFromRecords(subject.userAccesses, reference.systems),
    approvalOverride: '',
  };
  const open = stagesOpen(request);
  const overriding = (values: ReviewValues) => open && values.requestStatus === 'APPROVED';
  const { form, readOnly, statusOptions, shell } = useStatusReviewForm({
    request,
    canEdit,
    extraValues: initial,
    // What the save would write differs from the person's access and roles as read (a signed REQUEST_SAVE).
    changesAccess: (values) =>
      JSON.stringify(values.portalRoleIds) !== JSON.stringify(initial.portalRoleIds) ||
      JSON.stringify(toUserAccesses(values.accessControls, subject.id)) !==
        JSON.stringify(toUserAccesses(initial.accessControls, subject.id)),
    useEndpoint: useReviewAccessChangeRequest,
    toBody: (values: ReviewValues, attemptKey: string) => ({
      portalUser: { id: subject.id, portalRoleIds: values.portalRoleIds.map(Number) },
      userAccesses: toUserAccesses(values.accessControls, subject.id),
      userAccessModificationRequest: statusReviewBody(request, values),
      attemptKey,
      ...(overriding(values) ? { approvalOverride: values.approvalOverride.trim() } : {}),
    }),
    validate: {
      approvalOverride: (value, values) =>
        overriding(values) && !value.trim() ? `${APPROVAL_TEXTS.overrideLabel} is required` : null,
    },
    texts: { saved: MESSAGES.access.reviewSaved, failed: MESSAGES.access.reviewFailed },
    labels: LABELS,
    fieldPrefix: 'userAccessModificationRequest.',
    mapErrors: (fieldErrors) => {
      const mapped = accessErrorsToForm(fieldErrors, FIELDS, ['userAccessModificationRequest.', 'portalUser.']);
      // Approval policies: approving while stages are open needs the override, said at the status.
      if (fieldErrors[STATUS_KEY]?.includes('stagesOpen')) mapped.errors.requestStatus = APPROVAL_TEXTS.stagesOpen;
      return mapped;
    },
    onReload,
    carried,
    noPermissionText: 'You do not have permission to modify access-change requests.',
    finalization: (values) => ({
      warning: values.requestStatus === 'APPROVED' && !requestedAccessApplied(values.accessControls, request) && (
        <Alert color="yellow" title="Requested access not applied">
          {NOT_APPLIED_TEXT}
        </Alert>
      ),
    }),
  });

  const applyAbove = () =>
    form.setFieldValue('accessControls', applyRequestedAccess(form.values.accessControls, request, reference.systems));

  return (
    <ReviewFormShell {...shell}>
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
          form={form}
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
      <StatusReviewFields form={form} statusOptions={statusOptions} readOnly={readOnly} />
      {!readOnly && overriding(form.values) && (
        <Stack gap="xs">
          <Alert color="yellow" role="note">
            {APPROVAL_TEXTS.stagesOpen}
          </Alert>
          <CountedTextarea
            label={APPROVAL_TEXTS.overrideLabel}
            required
            maxLength={APPROVAL_LIMITS.overrideJustification}
            {...form.getInputProps('approvalOverride')}
            value={form.values.approvalOverride}
          />
        </Stack>
      )}
    </ReviewFormShell>
  );
}

import { Stack, Text } from '@mantine/core';
import { useForm, type FormValidateInput } from '@mantine/form';
import { modals } from '@mantine/modals';
import {
  isResolved,
  REQUEST_STATUS_LABELS,
  requestSignatureActions,
  type RequestStatus,
  type SignatureAction,
} from '@portal/contract';
import type { ComponentProps, ReactNode } from 'react';
import type { SignatureCredentials } from '../../../lib/signature';
import { openSigningDialog } from '../../../shared/signature/openSigningDialog';
import { meaningsFor, useSignatureSettings } from '../../../shared/signature/useSignatureSettings';
import type { ReviewerValues } from './ReviewerFields';
import type { ReviewFormShell } from './ReviewFormShell';
import { useReviewSave, type ReviewSaveOptions } from './useReviewSave';

/** The values every status-driven review form carries (001 §2.8, §2.10): the status and the reviewer's fields. */
export interface StatusReviewValues extends ReviewerValues {
  requestStatus: RequestStatus;
}

/** The labels of the status-driven review fields (001 §2.8, §2.10), also the 422 fieldErrors' labels. */
export const STATUS_REVIEW_LABELS = {
  requestStatus: 'Request Status',
  reviewerComments: 'Reviewer Comments',
  sysaidTicket: 'External Ticket #',
} as const;

/** What a status-driven review form reads of its request (an access-change or a profile-change request). */
export interface StatusReviewRequest {
  requestStatus: RequestStatus;
  allowedNextStatuses: RequestStatus[];
  reviewerComments?: string | null;
  sysaidTicket?: string | null;
}

/** What the kind adds to 'Confirm Request Finalization/Closure' for the values about to be saved. */
export interface FinalizationNotes {
  /** Shown above the question (e.g. the access review's 'Requested access not applied'). */
  warning?: ReactNode;
  /** A sentence put after 'It cannot be changed afterwards.' (e.g. what approving applies). */
  effect?: string;
}

export interface StatusReviewFormOptions<V extends StatusReviewValues, B> extends Pick<
  ReviewSaveOptions<V, B>,
  'useEndpoint' | 'toBody' | 'texts' | 'fieldPrefix' | 'mapErrors' | 'onReload' | 'carried'
> {
  request: StatusReviewRequest;
  /** The viewer holds the kind's write permission. */
  canEdit: boolean;
  /** The kind's own initial values beside the status, comments and ticket. */
  extraValues: Omit<V, keyof StatusReviewValues>;
  /** 422 fieldErrors' labels by field (the status fields' by default). */
  labels?: Record<string, string>;
  /** The read-only notice for viewers without the write permission. */
  noPermissionText: string;
  /** The kind's additions to the finalization question; none by default. */
  finalization?: (values: V) => FinalizationNotes;
  /**
   * Whether saving these values changes the person's access or portal roles (a save that does is signed
   * REQUEST_SAVE when signatures are on); false by default.
   */
  changesAccess?: (values: V) => boolean;
  /** The kind's own checks before a save (none by default). */
  validate?: FormValidateInput<V>;
}

/**
 * The request part of a status-driven review save body (000 §7, 001 §2.10): the request's id and version, the
 * chosen status and the reviewer's fields trimmed.
 */
export function statusReviewBody(request: { id: number; versionno: number }, values: StatusReviewValues) {
  return {
    id: request.id,
    versionno: request.versionno,
    requestStatus: values.requestStatus,
    reviewerComments: values.reviewerComments.trim(),
    sysaidTicket: values.sysaidTicket.trim(),
  };
}

/** The question asked before a save that resolves the request (001 §2.8 'Confirm Request Finalization/Closure'). */
function FinalizationQuestion({ status, warning, effect }: FinalizationNotes & { status: RequestStatus }) {
  const closes = `Saving with the status ‘${REQUEST_STATUS_LABELS[status]}’ finalizes and closes this request.`;
  const question = (
    <Text size="sm">
      {closes} It cannot be changed afterwards.{effect && ` ${effect}`} Do you want to continue?
    </Text>
  );
  if (!warning) return question;
  return (
    <Stack gap="sm">
      {warning}
      {question}
    </Stack>
  );
}

/**
 * The shared side of the status-driven review forms (access change 001 §2.8, profile change §2.10; §4): the
 * form with the request's status, Reviewer Comments and External Ticket # (kept over 'Reload request') beside
 * the kind's own values; the save through `useReviewSave`; a resolved request (or one this screen resolved)
 * locked; viewers without the permission read-only; the status options (the current status and the response's
 * allowedNextStatuses); and a save that resolves the request asking 'Confirm Request Finalization/Closure'
 * first. Returns the form, whether it is read-only, the status options and the props of `ReviewFormShell`.
 */
export function useStatusReviewForm<V extends StatusReviewValues, B>(options: StatusReviewFormOptions<V, B>) {
  const { request, canEdit } = options;
  const form = useForm<V>({
    initialValues: {
      requestStatus: request.requestStatus,
      reviewerComments: request.reviewerComments ?? '',
      sysaidTicket: request.sysaidTicket ?? '',
      ...options.extraValues,
    } as V,
    validate: options.validate,
  });
  const resolved = isResolved(request.requestStatus) || request.allowedNextStatuses.length === 0;
  const review = useReviewSave<V, B>({
    form,
    editable: canEdit && !resolved,
    useEndpoint: options.useEndpoint,
    toBody: options.toBody,
    resolves: (values) => isResolved(values.requestStatus),
    texts: options.texts,
    labels: options.labels ?? STATUS_REVIEW_LABELS,
    fieldPrefix: options.fieldPrefix,
    mapErrors: options.mapErrors,
    keepOnReload: ['reviewerComments', 'sysaidTicket'],
    onReload: options.onReload,
    carried: options.carried,
    onSignatureRequired: (values) => askSignature(values, signatureAction(values) ?? 'REQUEST_SAVE', true),
  });
  const signatures = useSignatureSettings(canEdit && !resolved);
  /** What saving these values is signed as (docs/decisions.md "Electronic signatures"); none: not signed. */
  const signatureAction = (values: V): SignatureAction | undefined =>
    requestSignatureActions(values.requestStatus, options.changesAccess?.(values) ?? false)[0];
  const sign = (values: V) => (credentials: SignatureCredentials) => review.saveSigned(values, credentials);
  // A save the API refused unsigned (the settings were not read yet) or one that changes access without
  // resolving: the signature in a dialog of its own.
  const askSignature = (values: V, action: SignatureAction, refused: boolean) =>
    openSigningDialog({
      action,
      meanings: meaningsFor(signatures, action),
      required: refused,
      onSign: sign(values),
    });
  const locked = resolved || review.savedResolved;
  const readOnly = !canEdit || locked;

  // The current status is always shown; the others are the response's allowedNextStatuses (001 §4).
  const statusOptions = [...new Set([request.requestStatus, ...request.allowedNextStatuses])].map((s) => ({
    value: s,
    label: REQUEST_STATUS_LABELS[s],
  }));

  const onSubmit = form.onSubmit((values) => {
    const action = signatures.enabled ? signatureAction(values) : undefined;
    if (!isResolved(values.requestStatus)) {
      if (action) return askSignature(values, action, false);
      return review.save(values);
    }
    if (action) {
      // The spec's confirmation, its title, question and buttons as they are, with the signing fields.
      return openSigningDialog({
        title: 'Confirm Request Finalization/Closure',
        children: <FinalizationQuestion status={values.requestStatus} {...options.finalization?.(values)} />,
        labels: { confirm: 'OK', cancel: 'Cancel' },
        action,
        meanings: meaningsFor(signatures, action),
        onSign: sign(values),
      });
    }
    modals.openConfirmModal({
      title: 'Confirm Request Finalization/Closure',
      children: <FinalizationQuestion status={values.requestStatus} {...options.finalization?.(values)} />,
      labels: { confirm: 'OK', cancel: 'Cancel' },
      onConfirm: () => review.save(values),
    });
  });

  const shell: Omit<ComponentProps<typeof ReviewFormShell>, 'children'> = {
    message: review.message,
    onCloseMessage: review.clearMessage,
    stale: review.stale,
    onReload: review.reload,
    locked:
      resolved &&
      `This request is resolved (${REQUEST_STATUS_LABELS[request.requestStatus]}) and can no longer be changed.`,
    readOnlyNotice: !canEdit && !locked && options.noPermissionText,
    editable: !readOnly,
    saving: review.saving,
    onSubmit,
    onReset: () => {
      form.reset();
      review.clearMessage();
    },
    dialogs: review.guardDialog,
  };
  return { form, readOnly, statusOptions, shell };
}

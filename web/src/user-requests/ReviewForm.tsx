import { Alert, Button, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import {
  CONSTANTS,
  FIELD_LIMITS,
  GLOBAL_ERRORS,
  isResolved,
  MESSAGES,
  REQUEST_STATUS_LABELS,
  translateFieldErrors,
  type AccessModRequest,
  type RequestStatus,
  type ReviewAccessChangeBody,
} from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError, apiPut } from '../app/api';
import { queryKeys } from '../app/queries';
import { CountedTextarea, CountedTextInput } from '../shared/CountedText';
import { MessageAlert, type PageMessage } from '../shared/ErrorAlert';
import { useUnsavedChanges } from '../shared/UnsavedChanges';

interface ReviewValues {
  requestStatus: RequestStatus;
  reviewerComments: string;
  sysaidTicket: string;
}

const LABELS = {
  requestStatus: 'Request Status',
  reviewerComments: 'Reviewer Comments',
  sysaidTicket: 'External Ticket #',
} as const;
const PREFIX = 'userAccessModificationRequest.';
const STALE_TEXT =
  'Someone else changed this request after you opened it, so your changes were not saved. Reload the request to see the latest version, then make your changes again.';

/**
 * The editable part of the Review Access Change Request screen (001 §2.8, §4): request status limited to the
 * response's allowedNextStatuses, Reviewer Comments (512) and External Ticket # (16), 'Save Changes' and
 * 'Reset'. A resolved status asks 'Confirm Request Finalization/Closure' first; a resolved request is locked.
 */
export function ReviewForm({
  request,
  canEdit,
  onReload,
}: {
  request: AccessModRequest;
  canEdit: boolean;
  onReload: () => void;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [message, setMessage] = useState<PageMessage | null>(null);
  const [stale, setStale] = useState(false);
  const [savedResolved, setSavedResolved] = useState(false);
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(redirectTimer.current), []);

  const form = useForm<ReviewValues>({
    initialValues: {
      requestStatus: request.requestStatus,
      reviewerComments: request.reviewerComments ?? '',
      sysaidTicket: request.sysaidTicket ?? '',
    },
  });
  const locked = isResolved(request.requestStatus) || request.allowedNextStatuses.length === 0 || savedResolved;
  const readOnly = !canEdit || locked;
  const dirty = !readOnly && form.isDirty();
  const guard = useUnsavedChanges(dirty);

  // The current status is always shown; the others are the response's allowedNextStatuses (001 §4).
  const statusOptions = [...new Set([request.requestStatus, ...request.allowedNextStatuses])].map((s) => ({
    value: s,
    label: REQUEST_STATUS_LABELS[s],
  }));

  const save = useMutation({
    mutationFn: (values: ReviewValues) => {
      const body: ReviewAccessChangeBody = {
        userAccessModificationRequest: {
          id: request.id,
          versionno: request.versionno,
          requestStatus: values.requestStatus,
          reviewerComments: values.reviewerComments.trim(),
          sysaidTicket: values.sysaidTicket.trim(),
        },
      };
      return apiPut<AccessModRequest>('/rest/secure/user_management/review_access_change_request', body);
    },
    onMutate: () => {
      setMessage(null);
      setStale(false);
    },
    onSuccess: (response, values) => {
      if (response.status === 304) {
        setMessage({ kind: 'info', text: MESSAGES.access.noChanges });
        return;
      }
      guard.release();
      if (isResolved(values.requestStatus)) setSavedResolved(true);
      notifications.show({ color: 'green', title: 'Saved', message: MESSAGES.access.reviewSaved });
      setMessage({ kind: 'success', text: MESSAGES.access.reviewSaved });
      void queryClient.invalidateQueries({ queryKey: ['userRequests'] });
      void queryClient.invalidateQueries({ queryKey: queryKeys.accessModRequest(request.id), refetchType: 'none' });
      redirectTimer.current = setTimeout(() => navigate('/app/user-requests'), CONSTANTS.redirectAfterSaveMs);
    },
    onError: (error) => {
      if (!(error instanceof ApiError)) {
        setMessage({ kind: 'error', text: MESSAGES.access.reviewFailed });
        return;
      }
      const errors: Record<string, string> = {};
      const details: string[] = [];
      for (const [key, reasons] of Object.entries(error.fieldErrors)) {
        const field = key.startsWith(PREFIX) ? key.slice(PREFIX.length) : key;
        if (field in LABELS) errors[field] = translateFieldErrors(LABELS[field as keyof typeof LABELS], reasons);
        else details.push(translateFieldErrors(key, reasons));
      }
      form.setErrors(errors);
      if (error.hasGlobalError(GLOBAL_ERRORS.staleVersion)) {
        setStale(true);
        setMessage({ kind: 'error', text: STALE_TEXT });
        return;
      }
      details.push(...error.globalErrors);
      setMessage({ kind: 'error', text: MESSAGES.access.reviewFailed, details });
    },
  });

  const onSubmit = form.onSubmit((values) => {
    if (!isResolved(values.requestStatus)) {
      save.mutate(values);
      return;
    }
    modals.openConfirmModal({
      title: 'Confirm Request Finalization/Closure',
      children: (
        <Text size="sm">
          Saving with the status &lsquo;{REQUEST_STATUS_LABELS[values.requestStatus]}&rsquo; finalizes and closes this
          request. It cannot be changed afterwards. Do you want to continue?
        </Text>
      ),
      labels: { confirm: 'OK', cancel: 'Cancel' },
      onConfirm: () => save.mutate(values),
    });
  });

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="review-heading">
      {guard.dialog}
      <form onSubmit={onSubmit} noValidate aria-labelledby="review-heading">
        <Stack gap="md">
          <Title order={2} size="h4" id="review-heading">
            Review
          </Title>
          <MessageAlert message={message} onClose={() => setMessage(null)}>
            {stale && (
              <Button size="compact-sm" mt="xs" variant="white" color="red" onClick={onReload}>
                Reload request
              </Button>
            )}
          </MessageAlert>
          {locked && !savedResolved && (
            <Alert color="gray" title="Request locked" role="status">
              This request is resolved ({REQUEST_STATUS_LABELS[request.requestStatus]}) and can no longer be changed.
            </Alert>
          )}
          {!canEdit && !locked && (
            <Alert color="gray" title="Read-only" role="status">
              You do not have permission to modify access-change requests.
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
          <CountedTextarea
            label={`${LABELS.reviewerComments} (optional)`}
            maxLength={FIELD_LIMITS.reviewerComments}
            readOnly={readOnly}
            variant={readOnly ? 'filled' : 'default'}
            {...form.getInputProps('reviewerComments')}
            value={form.values.reviewerComments}
          />
          <CountedTextInput
            label={`${LABELS.sysaidTicket} (optional)`}
            maxLength={FIELD_LIMITS.sysaidTicket}
            readOnly={readOnly}
            variant={readOnly ? 'filled' : 'default'}
            maw={320}
            {...form.getInputProps('sysaidTicket')}
            value={form.values.sysaidTicket}
          />
          {!readOnly && (
            <Group>
              <Button type="submit" loading={save.isPending}>
                Save Changes
              </Button>
              <Button
                variant="default"
                disabled={save.isPending}
                onClick={() => {
                  form.reset();
                  setMessage(null);
                }}
              >
                Reset
              </Button>
            </Group>
          )}
        </Stack>
      </form>
    </Paper>
  );
}

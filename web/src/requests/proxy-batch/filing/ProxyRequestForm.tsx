import { Alert, Button, Fieldset, Group, LoadingOverlay, Paper, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  FIELD_LIMITS,
  MESSAGES,
  PROXY_BATCH_MAX_BLOCKS,
  PROXY_MESSAGES,
  PROXY_TIMINGS,
  type ProxyBatchDetail,
  type UserListRow,
} from '@portal/contract';
import { useState } from 'react';
import { ApiError } from '../../../lib/apiClient';
import { CountedTextarea } from '../../../shared/CountedText';
import { MessageAlert, type PageMessage } from '../../../shared/ErrorAlert';
import { FormActions } from '../../../shared/FormActions';
import { RoleBlock, type RoleBlockValue } from '../../../shared/RoleBlock';
import type { AccessReference } from '../../../shared/useAccessReference';
import {
  blockErrors,
  emptyBlock,
  nextQuestionNum,
  reindexBlockErrors,
  rolesUsedElsewhere,
  serverErrorsToForm,
  toAccessControl,
  validateBlocks,
} from '../../../shared/roleBlockForm';
import { useStartProxyBatch } from '../api/proxyBatches';
import { FIELDS_NEED_ATTENTION, focusFirstInvalid } from '../../../shared/invalidFields';

interface FormValues {
  accessControls: RoleBlockValue[];
  requesterComments: string;
}

export type ProxyReference = AccessReference;

/**
 * Step 4 of 001 §2.7, 'Request Access For Your Selected Users': role blocks ('Add new role', 'Remove role', a
 * study role once; every selected user gets one request per block, NEW when they do not hold the block's role,
 * CHANGE when they do), comments (250, 001 §5, trimmed on blur), 'Submit Request' and 'Reset' (behind the
 * reset overlay for 500 ms, 001 §9). Disabled until a user is selected ('You must select at least one user to
 * enable this section.'). Its alert goes after 10,000 ms (001 §9). Submitting starts the batch; `onStarted`
 * attaches the page to it.
 */
export function ProxyRequestForm({
  reference,
  selected,
  onStarted,
}: {
  reference: ProxyReference;
  selected: UserListRow[];
  onStarted: (batch: ProxyBatchDetail) => void;
}) {
  const { studyRoles, systems } = reference;
  const [message, setMessage] = useState<PageMessage | null>(null);
  const [resetting, setResetting] = useState(false);
  const form = useForm<FormValues>({
    initialValues: { accessControls: [emptyBlock(1, systems)], requesterComments: '' },
    validate: (values) => validateBlocks(values.accessControls, studyRoles, systems),
  });
  const start = useStartProxyBatch({
    mutationConfig: {
      onMutate: () => setMessage(null),
      onSuccess: ({ data }) => {
        if (data) onStarted(data);
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 403) {
          setMessage({ kind: 'error', text: PROXY_MESSAGES.noPermission });
          return;
        }
        if (!(error instanceof ApiError) || error.status !== 422) {
          setMessage({ kind: 'error', text: MESSAGES.access.newRequestFailed });
          return;
        }
        const { errors, unmatched } = serverErrorsToForm(error.fieldErrors, {
          requesterComments: { label: 'Comments', plural: true },
          portalUserIds: { label: 'Selected users', plural: true },
        });
        form.setErrors(errors);
        setMessage({ kind: 'error', text: PROXY_MESSAGES.notSubmittedErrors, details: unmatched });
      },
    },
  });
  const disabled = selected.length === 0 || start.isPending;
  const blocks = form.values.accessControls;
  const allRolesUsed =
    blocks.length >= PROXY_BATCH_MAX_BLOCKS || studyRoles.every((r) => blocks.some((b) => b.roleName === r.roleName));
  const removeBlock = (index: number) => {
    form.setErrors(reindexBlockErrors(form.errors, index) as Record<string, string>);
    form.removeListItem('accessControls', index);
  };
  const reset = () => {
    setResetting(true);
    form.setValues({ accessControls: [emptyBlock(1, systems)], requesterComments: '' });
    form.clearErrors();
    setMessage(null);
    setTimeout(() => setResetting(false), PROXY_TIMINGS.resetOverlayMs);
  };

  const onSubmit = form.onSubmit(
    (values) =>
      start.mutate({
        portalUserIds: selected.map((u) => u.id),
        accessControls: values.accessControls.map(toAccessControl),
        requesterComments: values.requesterComments.trim(),
      }),
    (_errors, _values, event) => {
      setMessage({ kind: 'error', text: FIELDS_NEED_ATTENTION });
      focusFirstInvalid(event);
    },
  );

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="proxy-form-title" pos="relative">
      <LoadingOverlay
        visible={resetting}
        zIndex={2}
        overlayProps={{ blur: 1 }}
        loaderProps={{ role: 'status', 'aria-label': 'Resetting' }}
      />
      <form onSubmit={onSubmit} noValidate aria-labelledby="proxy-form-title">
        <Stack gap="md">
          <Title order={2} id="proxy-form-title">
            {PROXY_MESSAGES.formTitle}
          </Title>
          {selected.length === 0 && (
            <Alert color="blue" role="status">
              {PROXY_MESSAGES.selectUser}
            </Alert>
          )}
          <MessageAlert message={message} onClose={() => setMessage(null)} autoCloseMs={PROXY_TIMINGS.alertMs} />
          <Text size="sm" c="dimmed">
            {MESSAGES.formNote} Each selected user gets one request per role, in order: New Access when they do not hold
            the study role, Access Change when they do.
          </Text>
          <Fieldset variant="unstyled" disabled={disabled} m={0} p={0}>
            <Stack gap="md">
              {blocks.map((block, index) => (
                <RoleBlock
                  key={block.key}
                  index={index}
                  value={block}
                  onChange={(next) => {
                    form.setFieldValue(`accessControls.${index}`, next);
                    form.clearErrors();
                  }}
                  errors={blockErrors(form.errors, index)}
                  studyRoles={studyRoles}
                  sites={reference.sites}
                  studyNames={reference.studyNames}
                  systems={systems}
                  excludedRoleNames={rolesUsedElsewhere(blocks, index)}
                  onRemove={blocks.length > 1 && !disabled ? () => removeBlock(index) : undefined}
                  disabled={disabled}
                  withEndDate
                />
              ))}
              <Group>
                <Button
                  variant="light"
                  onClick={() => form.insertListItem('accessControls', emptyBlock(nextQuestionNum(blocks), systems))}
                  disabled={disabled || allRolesUsed}
                >
                  Add new role
                </Button>
              </Group>
              <CountedTextarea
                label="Comments (optional)"
                maxLength={FIELD_LIMITS.proxyRequesterComments}
                disabled={disabled}
                {...form.getInputProps('requesterComments')}
                value={form.values.requesterComments}
                onBlur={() => form.setFieldValue('requesterComments', form.values.requesterComments.trim())}
              />
            </Stack>
          </Fieldset>
          <FormActions label="Submit Request" pending={start.isPending} disabled={disabled} onReset={reset} />
        </Stack>
      </form>
    </Paper>
  );
}

import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import {
  FIELD_LIMITS,
  GLOBAL_ERRORS,
  MESSAGES,
  type Profile,
  type RelationIndex,
  type RequestType,
  type StudyRole,
  type System,
  type UserAccess,
} from '@portal/contract';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '../../../lib/apiClient';
import { paths } from '../../../lib/paths';
import { CountedTextarea } from '../../../shared/CountedText';
import { MessageAlert, type PageMessage } from '../../../shared/ErrorAlert';
import { FormActions, resetFormAndMessage } from '../../../shared/FormActions';
import { RoleBlock, type RoleBlockValue } from '../../../shared/RoleBlock';
import type { SiteOptions } from '../../../shared/referenceData';
import { reindexBlockErrors } from '../../../shared/roleBlockForm';
import { useUnsavedChanges } from '../../../shared/UnsavedChanges';
import {
  blockErrors,
  blockFromAccess,
  emptyBlock,
  nextQuestionNum,
  serverErrorsToForm,
  toRequestBody,
  validateAccessForm,
  withSystem,
  keepPreselected,
  type AccessFormValues,
} from './accessForm';
import { useCreateAccessChangeRequest } from '../api/createAccessChangeRequest';
import { FIELDS_NEED_ATTENTION, focusFirstInvalid } from '../../../shared/invalidFields';

export interface RequestAccessFormProps {
  profile: Profile;
  /** The access record being modified (UPDATE); absent for a NEW request. */
  existing: UserAccess | undefined;
  /** Study roles the user already holds: not offered in a NEW request. */
  rolesInUse: ReadonlySet<string>;
  /** Study roles covered by an outstanding request (001 §2.5). */
  pendingRoles: ReadonlySet<string>;
  studyRoles: StudyRole[];
  sites: SiteOptions;
  studyNames: string[];
  systems: System[];
  /** LAO-site-study relations (000 §5 filtering); null while unavailable (every option offered). */
  relations?: RelationIndex | null;
  /** A NEW request's system to preselect in the first block (`?systemId=`, from a refused single sign-on). */
  preselectedSystemId?: string;
}

/** The request form of 001 §2.5: role blocks, comments, 'Submit Request', 'Remove Access' (UPDATE), 'Reset'. */
export function RequestAccessForm(props: RequestAccessFormProps) {
  const { profile, existing, studyRoles, systems, preselectedSystemId } = props;
  const isUpdate = !!existing;
  const navigate = useNavigate();
  const [message, setMessage] = useState<PageMessage | null>(null);

  const form = useForm<AccessFormValues>({
    initialValues: {
      accessControls: [
        existing ? blockFromAccess(existing, systems) : withSystem(emptyBlock(1, systems), preselectedSystemId),
      ],
      requesterComments: '',
    },
    validate: (values) => validateAccessForm(values, studyRoles, systems),
  });
  const blocks = form.values.accessControls;
  // 001 §4 Unsaved-change detection: the comment is non-empty or the study-role answers differ.
  const dirty = form.values.requesterComments.trim() !== '' || form.isDirty('accessControls');
  const guard = useUnsavedChanges(dirty);

  // 001 §2.5: while an outstanding request covers the study role being modified, the form is disabled.
  const blockedByPending = isUpdate && props.pendingRoles.has(existing.roleName);
  const pendingList = [...props.pendingRoles].sort();

  const submit = useCreateAccessChangeRequest({
    mutationConfig: {
      onMutate: () => setMessage(null),
      onSuccess: (response) => {
        if (response.status === 304) {
          setMessage({ kind: 'info', text: MESSAGES.access.noChanges });
          return;
        }
        guard.release();
        notifications.show({ color: 'green', title: 'Request submitted', message: MESSAGES.access.submitted });
        void navigate(paths.app.profile.href('history'));
      },
      onError: (error) => {
        if (!(error instanceof ApiError)) {
          setMessage({ kind: 'error', text: MESSAGES.access.newRequestFailed });
          return;
        }
        const { errors, unmatched } = serverErrorsToForm(error.fieldErrors);
        form.setErrors(errors);
        const inProgress = error.hasGlobalError(GLOBAL_ERRORS.requestInProgress);
        const others = error.globalErrors.filter((g) => g !== GLOBAL_ERRORS.requestInProgress);
        setMessage({
          kind: 'error',
          text: inProgress ? MESSAGES.access.requestInProgress : MESSAGES.access.newRequestFailed,
          details: [...unmatched, ...others],
        });
      },
    },
  });
  const file = (type: RequestType, values: AccessFormValues) =>
    submit.mutate(
      toRequestBody(profile.portalUserId, profile.email, type, values.accessControls, values.requesterComments),
    );

  // 001 §5 'no changes': the server compares a CHANGE with the access held and answers 304 (shown as info),
  // so the rule lives in one place (contract sameAccess).
  const onSubmit = form.onSubmit(
    (values) => file(isUpdate ? 'CHANGE' : 'NEW', values),
    (_errors, _values, event) => {
      setMessage({ kind: 'error', text: FIELDS_NEED_ATTENTION });
      focusFirstInvalid(event);
    },
  );

  const confirmRemoval = () =>
    modals.openConfirmModal({
      title: 'Delete Access?',
      children: <Text size="sm">Are you sure you want to request removal of this access?</Text>,
      labels: { confirm: 'OK', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => file('REMOVAL', { ...form.values, accessControls: form.getInitialValues().accessControls }),
    });

  const addBlock = () => form.insertListItem('accessControls', emptyBlock(nextQuestionNum(blocks), systems));
  const setBlock = (index: number, next: RoleBlockValue) => {
    const preselected = index === 0 && !isUpdate ? preselectedSystemId : undefined;
    form.setFieldValue(`accessControls.${index}`, keepPreselected(blocks[index]!, next, preselected));
    form.clearFieldError(`accessControls.${index}.roleName`);
    form.clearFieldError(`accessControls.${index}.sites`);
    form.clearFieldError(`accessControls.${index}.studyNames`);
    form.clearFieldError(`accessControls.${index}.systemAccessIds`);
    form.clearFieldError(`accessControls.${index}.accessEndDate`);
  };
  // 001 §5: the removed block's errors go, later blocks' errors move up with their blocks.
  const removeBlock = (index: number) => {
    const errors = reindexBlockErrors(form.errors, index);
    form.removeListItem('accessControls', index);
    form.setErrors(errors as Record<string, string>);
  };
  const allRolesUsed = studyRoles.every(
    (r) =>
      props.rolesInUse.has(r.roleName) ||
      props.pendingRoles.has(r.roleName) ||
      blocks.some((b) => b.roleName === r.roleName),
  );
  const busy = submit.isPending;
  const disabled = busy || blockedByPending;

  return (
    <form onSubmit={onSubmit} noValidate aria-label={isUpdate ? 'Request Modified Access' : 'Request New Access'}>
      {guard.dialog}
      <Stack gap="md">
        <MessageAlert message={message} onClose={() => setMessage(null)} />
        {blockedByPending && (
          <Alert color="yellow" title="Outstanding request" role="status">
            An outstanding request already covers the study role {existing.roleName}. You can request another change
            once User Support has resolved it.
          </Alert>
        )}
        {!isUpdate && pendingList.length > 0 && (
          <Alert color="yellow" title="Outstanding requests" role="status">
            Outstanding requests already cover these study roles, so they cannot be requested again until resolved:{' '}
            {pendingList.join(', ')}.
          </Alert>
        )}
        <Text size="sm" c="dimmed">
          {MESSAGES.formNote}
        </Text>
        {blocks.map((block, index) => (
          <RoleBlock
            key={block.key}
            index={index}
            value={block}
            onChange={(next) => setBlock(index, next)}
            errors={blockErrors(form.errors, index)}
            studyRoles={studyRoles}
            sites={props.sites}
            studyNames={props.studyNames}
            systems={systems}
            relations={props.relations}
            excludedRoleNames={
              new Set([
                ...(isUpdate ? [] : [...props.rolesInUse, ...props.pendingRoles]),
                ...blocks.filter((_, i) => i !== index).flatMap((b) => (b.roleName ? [b.roleName] : [])),
              ])
            }
            roleLocked={isUpdate}
            disabled={disabled}
            withEndDate
            onRemove={!isUpdate && blocks.length > 1 ? () => removeBlock(index) : undefined}
          />
        ))}
        {!isUpdate && (
          <Group>
            <Button variant="light" onClick={addBlock} disabled={disabled || allRolesUsed}>
              Add new role
            </Button>
          </Group>
        )}
        <CountedTextarea
          label="Comments (optional)"
          maxLength={FIELD_LIMITS.requesterComments}
          disabled={disabled}
          {...form.getInputProps('requesterComments')}
          value={form.values.requesterComments}
          onBlur={() => form.setFieldValue('requesterComments', form.values.requesterComments.trim())}
        />
        <FormActions
          label="Submit Request"
          pending={busy}
          disabled={blockedByPending}
          onReset={resetFormAndMessage(form, setMessage)}
        >
          {isUpdate && (
            <Button color="red" variant="outline" onClick={confirmRemoval} disabled={disabled}>
              Remove Access
            </Button>
          )}
        </FormActions>
      </Stack>
    </form>
  );
}

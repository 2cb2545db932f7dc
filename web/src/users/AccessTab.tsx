import { Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { CONSTANTS, GLOBAL_ERRORS, USER_ACCESS_MESSAGES, type UserDetail } from '@portal/contract';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError } from '../lib/apiClient';
import { paths } from '../lib/paths';
import { useHasPermissions } from '../lib/sessionQueries';
import { AccessBlocksEditor } from '../shared/AccessBlocksEditor';
import { AccessHistorySection } from '../shared/AccessProvenance';
import { type EditorReference, useEditorReference } from '../shared/useAccessReference';
import { accessErrorsToForm, blocksFromRecords, toUserAccesses, type AccessBlock } from '../shared/accessBlocks';
import { LoadError, MessageAlert, type PageMessage } from '../shared/ErrorAlert';
import { FormActions, resetFormAndMessage } from '../shared/FormActions';
import { PageLoader } from '../shared/PageLoader';
import { validateBlocks } from '../shared/roleBlockForm';
import { useUnsavedChanges } from '../shared/UnsavedChanges';
import { useReplaceUserAccess } from './api/replaceUserAccess';
import { ProvisionedSystems } from './ProvisionedSystems';
import { isSignatureRequired, isSigningError, sendSigned, type SignatureCredentials } from '../lib/signature';
import { openSigningDialog } from '../shared/signature/openSigningDialog';
import { meaningsFor, useSignatureSettings } from '../shared/signature/useSignatureSettings';

/** returnUrl is followed only inside the app (000 §2: default /app/users), as the detail's Back link. */
const safeReturn = (url: string | null) => (url && url.startsWith('/app/') ? url : paths.app.users.href);

/**
 * Access tab (000 §2 User detail, admin view): the user's access as repeatable role blocks with 'Add new role',
 * 'Remove role', 'Save Changes' and 'Reset' for WRITE_USERS (read-only otherwise), saved with PUT
 * user_access/user/{portalUserId} (000 §7). A save answers 'User's Access Updated' and returns after 750 ms;
 * 304 is 'There are no changes to submit.'; REQUEST_IN_PROGRESS and field errors as 000 §8 words them. Below,
 * each saved record's History (issue 25 'Why does this person have this access'), after the person's accounts at
 * the provisioned systems (issue 41).
 */
export function AccessTab({ user }: { user: UserDetail }) {
  const reference = useEditorReference();
  if (reference.failed) return <LoadError text="Problem loading the access options." onRetry={reference.retry} />;
  if (!reference.data) return <PageLoader label="Loading the user's access" />;
  // Not keyed by the records: the refetch after a save must not remount the editor (its return timer would go).
  return <AccessEditor user={user} reference={reference.data} />;
}

function AccessEditor({ user, reference }: { user: UserDetail; reference: EditorReference }) {
  const readOnly = !useHasPermissions('WRITE_USERS');
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const [message, setMessage] = useState<PageMessage | null>(null);
  const form = useForm<{ accessControls: AccessBlock[] }>({
    initialValues: { accessControls: blocksFromRecords(user.userAccesses, reference.systems) },
    validate: (values) => validateBlocks(values.accessControls, reference.studyRoles, reference.systems),
  });
  const guard = useUnsavedChanges(!readOnly && form.isDirty());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const save = useReplaceUserAccess({
    mutationConfig: {
      onMutate: () => setMessage(null),
      onSuccess: (res) => {
        if (res.status === 304) return setMessage({ kind: 'info', text: USER_ACCESS_MESSAGES.noChanges });
        guard.release();
        notifications.show({
          color: 'green',
          title: USER_ACCESS_MESSAGES.updatedTitle,
          message: USER_ACCESS_MESSAGES.updatedText,
        });
        timer.current = setTimeout(
          () => void navigate(safeReturn(search.get('returnUrl'))),
          CONSTANTS.redirectAfterSaveMs,
        );
      },
      onError: (error) => {
        // The signing dialog shows its own refusals; an unsigned save the API wants signed asks for it.
        if (isSigningError(error)) return;
        if (isSignatureRequired(error)) return askSignature(true);
        if (!(error instanceof ApiError)) {
          return setMessage({ kind: 'error', text: USER_ACCESS_MESSAGES.updateUserAccessFailed });
        }
        if (error.hasGlobalError(GLOBAL_ERRORS.requestInProgress)) {
          return setMessage({ kind: 'error', text: USER_ACCESS_MESSAGES.requestInProgress });
        }
        if (error.hasGlobalError(GLOBAL_ERRORS.staleVersion)) {
          return setMessage({ kind: 'error', text: USER_ACCESS_MESSAGES.staleRecord });
        }
        const placed = accessErrorsToForm(error.fieldErrors);
        form.setErrors(placed.errors);
        setMessage({
          kind: 'error',
          text: USER_ACCESS_MESSAGES.updateUserAccessFailed,
          details: [...placed.unmatched, ...error.globalErrors],
        });
      },
    },
  });

  const signatures = useSignatureSettings(!readOnly);
  /** The save, signed (USER_ACCESS_EDIT) when credentials are given. */
  const send = (credentials?: SignatureCredentials) => {
    const variables = {
      portalUserId: user.id,
      body: { userAccesses: toUserAccesses(form.values.accessControls, user.id) },
    };
    if (!credentials) return save.mutate(variables);
    return sendSigned(credentials, () => save.mutateAsync(variables));
  };
  const askSignature = (required: boolean) =>
    openSigningDialog({
      action: 'USER_ACCESS_EDIT',
      meanings: meaningsFor(signatures, 'USER_ACCESS_EDIT'),
      required,
      onSign: (credentials) => send(credentials),
    });

  const submit = () => {
    const checked = form.validate();
    if (checked.hasErrors) return;
    if (signatures.enabled) return askSignature(false);
    send();
  };

  return (
    <Stack gap="md">
      {guard.dialog}
      <MessageAlert message={message} onClose={() => setMessage(null)} />
      <Text c="dimmed" size="sm">
        The access {user.firstName} {user.lastName} holds, by study role.
        {readOnly ? '' : ' Changes take effect when saved.'}
      </Text>
      <AccessBlocksEditor
        form={form}
        reference={reference}
        readOnly={readOnly}
        emptyText="This user holds no access."
      />
      {!readOnly && (
        <FormActions
          label="Save Changes"
          pending={save.isPending}
          // Not a submit button: the tab sits inside the detail's account form.
          onAction={submit}
          onReset={resetFormAndMessage(form, setMessage)}
          mt="sm"
        />
      )}
      <ProvisionedSystems portalUserId={user.id} />
      <AccessHistorySection
        portalUserId={user.id}
        records={user.userAccesses}
        headingId="user-access-history-heading"
      />
    </Stack>
  );
}

import { Anchor, Stack, Tabs, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { CONSTANTS, USER_DETAIL_MESSAGES, type UserDetail } from '@portal/contract';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { paths } from '../lib/paths';
import { useHasPermissions } from '../lib/sessionQueries';
import { LoadError, MessageAlert, type PageMessage } from '../shared/ErrorAlert';
import { FormActions } from '../shared/FormActions';
import { RequestsHistory } from '../shared/history/RequestsHistory';
import { PageLoader } from '../shared/PageLoader';
import { useUnsavedChanges } from '../shared/UnsavedChanges';
import { usePageTitle } from '../shared/usePageTitle';
import { AccessTab } from './AccessTab';
import { AccountTab } from './AccountTab';
import { useUser } from './api/getUser';
import { useSetUserStatus } from './api/setUserStatus';
import { isSignatureRequired, isSigningError, sendSigned, type SignatureCredentials } from '../lib/signature';
import { openSigningDialog } from '../shared/signature/openSigningDialog';
import { meaningsFor, useSignatureSettings } from '../shared/signature/useSignatureSettings';
import { useUpdateUser } from './api/updateUser';
import { DetailsTab } from './DetailsTab';
import { PasswordSection } from './PasswordSection';
import { SecondFactorSection } from './SecondFactorSection';
import { SignedDecisionsSection } from './SignedDecisionsSection';
import { StatusSection } from './StatusSection';
import { DETAILS_FIELDS, bodyOf, describeUserFailure, lockedFields, valuesOf } from './userForm';

const TABS = { account: 'Account', details: 'Details', access: 'Access', history: 'Requests History' } as const;
type TabKey = keyof typeof TABS;
const isTab = (value: string | null): value is TabKey => !!value && value in TABS;

/** returnUrl is followed only inside the app (000 §2: default /app/users). */
const safeReturn = (url: string | null) => (url && url.startsWith('/app/') ? url : paths.app.users.href);

/**
 * /app/users/{id}?returnUrl=&returnPage=&tab= (000 §2 User detail): 'Edit User' with WRITE_USERS, otherwise
 * 'View User' read-only (000 §5). Loads the user, then shows the Account and Details tabs over one form.
 */
export function UserDetailPage() {
  const id = Number(useParams().id);
  const user = useUser(id);
  const canWrite = useHasPermissions('WRITE_USERS');
  const [search] = useSearchParams();
  const back = { to: safeReturn(search.get('returnUrl')), label: search.get('returnPage') || 'Users' };
  const verb = canWrite ? 'Edit User' : 'View User';
  usePageTitle(verb);

  let body;
  if (user.data) body = <UserEditor key={user.data.id} user={user.data} readOnly={!canWrite} back={back} />;
  else if (user.isError)
    body = <LoadError text={USER_DETAIL_MESSAGES.loadFailed} onRetry={() => void user.refetch()} />;
  else body = <PageLoader />;
  return (
    <Stack gap="md">
      <Anchor component={Link} to={back.to}>
        ‹ Back to {back.label}
      </Anchor>
      <Title order={1}>
        {verb}
        {user.data ? ` ${user.data.firstName} ${user.data.lastName}` : ''}
      </Title>
      {body}
    </Stack>
  );
}

function UserEditor({
  user,
  readOnly,
  back,
}: {
  user: UserDetail;
  readOnly: boolean;
  back: { to: string; label: string };
}) {
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const requested = search.get('tab');
  const tab: TabKey = isTab(requested) ? requested : 'account';
  const isAdmin = useHasPermissions('ADMIN');
  const [message, setMessage] = useState<PageMessage | null>(null);
  const form = useForm({ initialValues: valuesOf(user) });
  const guard = useUnsavedChanges(!readOnly && form.isDirty());

  // A tab change with unsaved changes went through the 'Unsaved Changes' dialog: the changes were abandoned.
  useEffect(() => {
    form.reset();
    setMessage(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only on a tab change
  }, [tab]);

  const save = useUpdateUser({
    mutationConfig: {
      onMutate: () => setMessage(null),
      onSuccess: (res) => {
        if (res.status === 304) return setMessage({ kind: 'info', text: USER_DETAIL_MESSAGES.noChanges });
        guard.release();
        notifications.show({
          color: 'green',
          title: tab === 'details' ? USER_DETAIL_MESSAGES.detailsUpdated : USER_DETAIL_MESSAGES.accountUpdated,
          message: USER_DETAIL_MESSAGES.updatedText,
        });
        setTimeout(() => void navigate(back.to), CONSTANTS.redirectAfterSaveMs);
      },
      onError: (error, variables) => {
        // The signing dialog shows its own refusals; a save the API wants signed (it changes the person's
        // portal roles) asks for the signature and is sent again signed.
        if (isSigningError(error)) return;
        if (isSignatureRequired(error)) return askRolesSignature(variables, true);
        const failure = describeUserFailure(error, USER_DETAIL_MESSAGES.updateFailed);
        form.setErrors(failure.fieldErrors);
        // A refused field on the other tab is named in the message too, so nothing is hidden.
        const elsewhere = Object.entries(failure.fieldErrors)
          .filter(([key]) => DETAILS_FIELDS.has(key) !== (tab === 'details'))
          .map(([, text]) => text);
        setMessage({ ...failure.message, details: [...elsewhere, ...(failure.message.details ?? [])] });
      },
    },
  });
  const status = useSetUserStatus({
    mutationConfig: {
      onMutate: () => setMessage(null),
      onSuccess: (res) => {
        if (res.status === 304) setMessage({ kind: 'info', text: USER_DETAIL_MESSAGES.noChanges });
      },
      onError: (error, variables) => {
        // The signing dialog shows its own refusals; an unsigned change the API wants signed asks for it.
        if (isSigningError(error)) return;
        if (isSignatureRequired(error)) {
          return openSigningDialog({
            title: USER_DETAIL_MESSAGES.statusTitle,
            action: 'USER_STATUS',
            meanings: meaningsFor(signatures, 'USER_STATUS'),
            labels: { confirm: 'OK', cancel: 'Cancel' },
            required: true,
            onSign: (credentials) => changeStatus(variables.action, credentials),
          });
        }
        setMessage(describeUserFailure(error, USER_DETAIL_MESSAGES.statusFailed).message);
      },
    },
  });
  const signatures = useSignatureSettings(!readOnly);
  /** An activation or deactivation, signed (USER_STATUS) when credentials are given. */
  const changeStatus = (action: 'activate' | 'deactivate', credentials?: SignatureCredentials) => {
    if (!credentials) return status.mutate({ id: user.id, action });
    return sendSigned(credentials, () => status.mutateAsync({ id: user.id, action }));
  };

  const changeTab = (next: string | null) => {
    if (isTab(next) && next !== tab) setSearch((s) => ({ ...Object.fromEntries(s), tab: next }), { replace: true });
  };
  /** A save that changes the person's portal roles is an edit of their access (USER_ACCESS_EDIT). */
  function askRolesSignature(body: Parameters<typeof save.mutate>[0], required: boolean) {
    openSigningDialog({
      action: 'USER_ACCESS_EDIT',
      meanings: meaningsFor(signatures, 'USER_ACCESS_EDIT'),
      required,
      onSign: (credentials) => sendSigned(credentials, () => save.mutateAsync(body)),
    });
  }
  const submit = form.onSubmit((values) => {
    const body = bodyOf(user, values);
    const rolesChanged =
      JSON.stringify([...values.portalRoleIds].sort()) !== JSON.stringify(user.portalRoleIds.map(String).sort());
    if (signatures.enabled && rolesChanged) return askRolesSignature(body, false);
    save.mutate(body);
  });

  return (
    <form onSubmit={submit} noValidate>
      {guard.dialog}
      <MessageAlert message={message} onClose={() => setMessage(null)} />
      {!readOnly && tab !== 'access' && tab !== 'history' && (
        <Text size="sm" c="dimmed" mb="sm">
          All fields are required unless indicated.
        </Text>
      )}
      <Tabs value={tab} onChange={changeTab} keepMounted={false}>
        <Tabs.List mb="md">
          {Object.entries(TABS).map(([key, label]) => (
            <Tabs.Tab key={key} value={key}>
              {label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="account">
          <Stack gap="lg">
            <AccountTab user={user} form={form} readOnly={readOnly} locked={lockedFields(user, isAdmin)} />
            <StatusSection
              user={user}
              readOnly={readOnly}
              busy={status.isPending}
              onChange={changeStatus}
              signingMeanings={signatures.enabled ? meaningsFor(signatures, 'USER_STATUS') : undefined}
            />
            <SignedDecisionsSection user={user} />
            <PasswordSection user={user} readOnly={readOnly} />
            <SecondFactorSection user={user} canReset={isAdmin} />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="details">
          <DetailsTab form={form} readOnly={readOnly} />
        </Tabs.Panel>
        <Tabs.Panel value="access">
          <AccessTab user={user} />
        </Tabs.Panel>
        <Tabs.Panel value="history">
          <RequestsHistory subject={{ self: false, userId: user.id }} />
        </Tabs.Panel>
      </Tabs>
      {!readOnly && tab !== 'access' && tab !== 'history' && (
        <FormActions label="Save Changes" pending={save.isPending} onReset={() => form.reset()} mt="lg" />
      )}
    </form>
  );
}

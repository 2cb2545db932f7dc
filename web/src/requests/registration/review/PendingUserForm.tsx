import { Button, Divider, Group, Modal, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { REGISTRATION_MESSAGES, type AccountTypes, type PortalRole, type Registration } from '@portal/contract';
import { ReviewFormShell } from '../../shared/review/ReviewFormShell';
import { ReviewerFields } from '../../shared/review/ReviewerFields';
import { useReviewSave } from '../../shared/review/useReviewSave';
import { useUpdateRegistration } from '../api/updateRegistration';
import { LdapDetails } from './LdapDetails';
import { initialValues, PENDING_USER_LABELS, toUpdateBody, type PendingUserValues } from './pendingUserForm';
import { PortalRoleChecklist } from '../../shared/review/PortalRoleChecklist';
import { registrationStatusLabel } from './RegistrationDetails';
import { useRegistrationActions } from './useRegistrationActions';

const SAVE_LABELS = {
  reviewerComments: PENDING_USER_LABELS.reviewerComments!.label,
  sysaidTicket: PENDING_USER_LABELS.sysaidTicket!.label,
  portalRoleIds: PENDING_USER_LABELS.portalRoleIds!.label,
};

/** What the reviewer chose survives 'Reload request' after a stale refusal (issue 9), as in the access review. */
const KEPT_ON_RELOAD = ['reviewerComments', 'sysaidTicket', 'portalRoleIds'] as const;

/**
 * The editable part of Review Pending User (001 §2.4, §4): portal roles, Reviewer Comments, External Ticket #,
 * LDAP Details, and the actions: 'Save Changes' (update, through the shared review save), 'Reject' (confirmed:
 * it cannot be undone), 'Delete' (confirmed) and 'Create User', whose internal-domain warning offers 'Create
 * User Anyway'. Only a PENDING registration changes; without WRITE_USERS everything is read-only with the
 * spec's message.
 */
export function PendingUserForm({
  registration,
  canEdit,
  onReload,
  carried,
  portalRoles,
  accountTypes,
}: {
  registration: Registration;
  canEdit: boolean;
  /** Loads the registration again after a stale refusal, with the reviewer's kept fields. */
  onReload: (kept: Partial<PendingUserValues>) => void;
  /** The reviewer's fields kept from before 'Reload request', put back over the fresh version. */
  carried?: Partial<PendingUserValues>;
  portalRoles: PortalRole[];
  accountTypes: AccountTypes | undefined;
}) {
  const form = useForm<PendingUserValues>({
    initialValues: initialValues(registration, accountTypes?.defaultAccountType.id ?? 'external'),
  });
  const locked = registration.registrationStatus !== 'PENDING';
  const review = useReviewSave({
    form,
    editable: canEdit && !locked,
    useEndpoint: useUpdateRegistration,
    toBody: (values: PendingUserValues, attemptKey: string) => toUpdateBody(registration, values, attemptKey),
    resolves: () => false,
    texts: { saved: REGISTRATION_MESSAGES.updated, failed: REGISTRATION_MESSAGES.updateFailed },
    labels: SAVE_LABELS,
    fieldPrefix: 'registrationForm.',
    keepOnReload: KEPT_ON_RELOAD,
    onReload,
    carried,
  });
  const actions = useRegistrationActions({
    registration,
    form,
    releaseGuard: review.releaseGuard,
    editable: canEdit && !locked,
  });
  const readOnly = !canEdit || locked || actions.finished;
  const busy = review.saving || actions.busy;

  const rejectQuestion = (
    <Text size="sm">
      Are you sure you want to reject the registration of {registration.firstName} {registration.lastName}? This cannot
      be undone.
    </Text>
  );
  const confirmReject = () =>
    actions.signsDecisions
      ? actions.denySigned(rejectQuestion)
      : modals.openConfirmModal({
          title: 'Reject Registration?',
          children: rejectQuestion,
          labels: { confirm: 'Reject', cancel: 'Cancel' },
          confirmProps: { color: 'red' },
          onConfirm: actions.deny,
        });
  const confirmDelete = () =>
    modals.openConfirmModal({
      title: 'Delete Registration?',
      children: (
        <Text size="sm">
          Are you sure you want to delete the registration of {registration.firstName} {registration.lastName}?
        </Text>
      ),
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: actions.remove,
    });

  const internalDomainWarning = (
    <Modal opened={actions.warningOpen} onClose={actions.closeWarning} title="Create User?">
      <Text size="sm" mb="lg">
        {REGISTRATION_MESSAGES.internalDomainWarning}
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={actions.closeWarning} data-autofocus>
          Cancel
        </Button>
        <Button color="orange" onClick={actions.approveAnyway}>
          Create User Anyway
        </Button>
      </Group>
    </Modal>
  );

  return (
    <ReviewFormShell
      message={actions.message ?? review.message}
      onCloseMessage={() => {
        actions.clearMessage();
        review.clearMessage();
      }}
      stale={review.stale || actions.stale}
      onReload={review.reload}
      locked={
        locked &&
        `This registration is ${registrationStatusLabel(registration.registrationStatus)} and can no longer be changed.`
      }
      readOnlyNotice={!canEdit && !locked && REGISTRATION_MESSAGES.noPermission}
      editable={!readOnly}
      saving={review.saving}
      onSubmit={form.onSubmit(review.save)}
      onReset={() => {
        form.reset();
        review.clearMessage();
        actions.clearMessage();
      }}
      dialogs={
        <>
          {review.guardDialog}
          {internalDomainWarning}
        </>
      }
    >
      <PortalRoleChecklist
        roles={portalRoles}
        value={form.values.portalRoleIds}
        onChange={(ids) => {
          form.setFieldValue('portalRoleIds', ids);
          form.clearFieldError('portalRoleIds');
        }}
        error={typeof form.errors.portalRoleIds === 'string' ? form.errors.portalRoleIds : undefined}
        readOnly={readOnly}
      />
      <ReviewerFields form={form} labels={SAVE_LABELS} readOnly={readOnly} />
      {/* A resolved registration has no directory choice left to make. */}
      {!locked && (
        <LdapDetails registration={registration} form={form} accountTypes={accountTypes} readOnly={readOnly} />
      )}
      {!readOnly && (
        <Stack gap="xs">
          <Divider />
          <Text size="sm" c="dimmed">
            &lsquo;Create User&rsquo; creates the portal user with the portal roles and requested access above, and
            creates or links the directory account. &lsquo;Save Changes&rsquo; keeps the registration pending.
          </Text>
          <Group>
            <Button color="green" onClick={actions.approve} loading={actions.busy} disabled={busy}>
              Create User
            </Button>
            <Button color="red" variant="outline" onClick={confirmReject} disabled={busy}>
              Reject
            </Button>
            <Button color="red" variant="subtle" onClick={confirmDelete} disabled={busy}>
              Delete
            </Button>
          </Group>
          <Divider />
        </Stack>
      )}
    </ReviewFormShell>
  );
}

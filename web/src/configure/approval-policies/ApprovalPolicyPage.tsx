import { Button, Select, Switch, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { CONFIG_MESSAGES, type ApprovalPolicy, type StudyRoleListItem, type SystemDetail } from '@portal/contract';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { paths } from '../../lib/paths';
import { LoadError, type PageMessage } from '../../shared/ErrorAlert';
import { focusFirstInvalid } from '../../shared/invalidFields';
import { PageLoader } from '../../shared/PageLoader';
import { useUnsavedChanges } from '../../shared/UnsavedChanges';
import { usePageTitle } from '../../shared/usePageTitle';
import { useConfigList } from '../api/getConfigList';
import { studyRoleResource, systemResource } from '../api/resources';
import { ConfigFormShell } from '../ConfigFormShell';
import { parseId } from '../editor/ConfigEditorRoute';
import { useApprovalPolicies, useDeletePolicy, useSavePolicy } from './api';
import {
  ANY_SYSTEM,
  describePolicyFailure,
  initialValues,
  POLICY_TEXTS,
  toBody,
  validate,
  type PolicyValues,
} from './policyForm';
import { StageFields } from './StageFields';

const BACK = { to: paths.app.configure.href('approvalPolicies'), label: 'Back to Approval policies' };

/** /app/configure/approval-policies/new 'Add policy' and .../{id} 'Edit policy' (ADMIN). */
export function ApprovalPolicyPage() {
  const id = parseId(useParams().id);
  usePageTitle(`${id === null ? 'Add' : 'Edit'} Approval Policy`);
  const policies = useApprovalPolicies();
  const roles = useConfigList(studyRoleResource);
  const systems = useConfigList(systemResource);
  const policy = id !== null ? policies.data?.find((p) => p.id === id) : null;
  if (policies.isError || id === -1 || (policies.data && policy === undefined))
    return (
      <LoadError
        text={POLICY_TEXTS.loadFailed}
        onRetry={policies.isError ? () => void policies.refetch() : undefined}
      />
    );
  if (roles.isError)
    return <LoadError text={CONFIG_MESSAGES.studyRoles.loadAll} onRetry={() => void roles.refetch()} />;
  if (systems.isError)
    return <LoadError text={CONFIG_MESSAGES.systems.loadAll} onRetry={() => void systems.refetch()} />;
  if (!policies.data || !roles.data || !systems.data) return <PageLoader label="Loading the approval policy" />;
  return (
    <PolicyForm
      key={policy ? `${policy.id}-${policy.versionno}` : 'new'}
      policy={policy ?? null}
      roles={roles.data}
      systems={systems.data}
    />
  );
}

function PolicyForm({
  policy,
  roles,
  systems,
}: {
  policy: ApprovalPolicy | null;
  roles: StudyRoleListItem[];
  systems: SystemDetail[];
}) {
  const navigate = useNavigate();
  const [message, setMessage] = useState<PageMessage | null>(null);
  const form = useForm<PolicyValues>({ initialValues: initialValues(policy), validate });
  const guard = useUnsavedChanges(form.isDirty());
  const done = (text: string) => {
    guard.release();
    notifications.show({ color: 'green', title: 'Success', message: text });
    void navigate(BACK.to);
  };
  const onError = (text: string) => (error: Error) => {
    const failure = describePolicyFailure(error, text);
    form.setErrors(failure.fieldErrors);
    setMessage(failure.message);
  };
  const save = useSavePolicy({
    onMutate: () => setMessage(null),
    onSuccess: (res) =>
      res.status === 304 ? setMessage({ kind: 'info', text: CONFIG_MESSAGES.noChanges }) : done(POLICY_TEXTS.saved),
    onError: onError(POLICY_TEXTS.saveFailed),
  });
  const remove = useDeletePolicy({
    onMutate: () => setMessage(null),
    onSuccess: () => done(POLICY_TEXTS.deleted),
    onError: onError(POLICY_TEXTS.deleteFailed),
  });
  const confirmDelete = (p: ApprovalPolicy) =>
    modals.openConfirmModal({
      title: 'Delete approval policy?',
      children: (
        <Text size="sm">
          {`The policy of '${p.roleName}' (${p.systemName ?? POLICY_TEXTS.anySystem}) is removed for good. Requests already filed keep their stages; new requests for the role go straight to the User Support review.`}
        </Text>
      ),
      labels: { confirm: 'Delete policy', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(p.id),
    });

  const activeRoles = roles.filter((r) => !r.inactive || r.id === policy?.studyRoleId);
  const role = roles.find((r) => String(r.id) === form.values.studyRoleId);
  const systemName = new Map(systems.map((s) => [s.id, s.systemName]));
  const systemOptions = [
    { value: ANY_SYSTEM, label: POLICY_TEXTS.anySystem },
    ...(role?.systemAccessIds ?? []).map((id) => ({ value: String(id), label: systemName.get(id) ?? `#${id}` })),
  ];
  const pending = save.isPending || remove.isPending;
  return (
    <ConfigFormShell
      title={`${policy ? 'Edit' : 'Add'} Approval Policy`}
      back={BACK}
      readOnly={false}
      inactive={policy ? !policy.active : false}
      message={message}
      onCloseMessage={() => setMessage(null)}
      onSubmit={form.onSubmit(
        (v) => save.mutate({ id: policy?.id ?? null, body: toBody(v, policy) }),
        (_errors, _values, event) => focusFirstInvalid(event),
      )}
      dialogs={guard.dialog}
      actions={
        <>
          <Button type="submit" loading={save.isPending} disabled={remove.isPending}>
            Save policy
          </Button>
          <Button
            variant="default"
            onClick={() => {
              form.reset();
              setMessage(null);
            }}
            disabled={pending}
          >
            Reset
          </Button>
          <Button variant="subtle" onClick={() => void navigate(BACK.to)} disabled={pending}>
            Cancel
          </Button>
          {policy && (
            <Button
              color="red"
              variant="light"
              ml="auto"
              onClick={() => confirmDelete(policy)}
              loading={remove.isPending}
            >
              Delete policy
            </Button>
          )}
        </>
      }
    >
      <Select
        label="Study Role"
        data={activeRoles.map((r) => ({
          value: String(r.id),
          label: r.inactive ? `${r.roleName} (inactive)` : r.roleName,
        }))}
        searchable
        allowDeselect={false}
        required
        nothingFoundMessage="No study role matches"
        {...form.getInputProps('studyRoleId')}
        onChange={(v) => {
          form.setFieldValue('studyRoleId', v ?? '');
          form.setFieldValue('systemAccessId', ANY_SYSTEM);
        }}
      />
      <Select
        label="System (optional)"
        description="Narrows the policy to requests that include this system; 'Any system' applies to every request for the role."
        data={systemOptions}
        allowDeselect={false}
        disabled={!role}
        {...form.getInputProps('systemAccessId')}
      />
      <StageFields form={form} />
      <Switch
        label="Active"
        description="An inactive policy is kept but adds no stages to new requests."
        {...form.getInputProps('active', { type: 'checkbox' })}
      />
    </ConfigFormShell>
  );
}

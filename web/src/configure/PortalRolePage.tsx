import { Radio, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import {
  CONFIG_MESSAGES,
  FIELD_LIMITS,
  hasAllPermissions,
  MESSAGES,
  PERMISSION_DESCRIPTIONS,
  PERMISSIONS,
  type Permission,
  type PortalRole,
} from '@portal/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { apiPost, apiPut } from '../app/api';
import { SUPPORT_EMAIL } from '../app/config';
import { usePermissions } from '../app/queries';
import { PageLoader } from '../auth/SecurePage';
import { CountedTextInput } from '../shared/CountedText';
import { LoadError, type PageMessage } from '../shared/ErrorAlert';
import { useUnsavedChanges } from '../shared/UnsavedChanges';
import { usePageTitle } from '../shared/usePageTitle';
import {
  CONFIG_PATHS,
  CONFIG_ROUTES,
  countSentence,
  inUse,
  invalidateConfiguration,
  parseId,
  usePortalRole,
} from './api';
import { auditTrailUrl } from '../audit-trail/query';
import { ConfigFormShell, FormButtons } from './ConfigFormShell';
import { describeFailure, type FieldLabels } from './errors';
import { InUseDialog } from './InUseDialog';

const M = CONFIG_MESSAGES.portalRoles;
const LABELS: FieldLabels = {
  description: { label: 'Role Name' },
  permissions: { label: 'Permissions', plural: true },
};
const BACK = { to: CONFIG_ROUTES.tab('portalRoles'), label: 'Back to Portal Roles' };

interface Values {
  description: string;
  permission: Permission | '';
}

/** /app/configure/roles/new 'Add Portal Role' and /app/configure/roles/{id} 'Edit Portal Role' (001 §2.12). */
export function PortalRolePage() {
  const id = parseId(useParams().id);
  const role = usePortalRole(id !== null && id > 0 ? id : null);
  usePageTitle(id === null ? 'Add Portal Role' : 'Edit Portal Role');
  if (id === -1 || role.isError)
    return <LoadError text={M.load} onRetry={id === -1 ? undefined : () => void role.refetch()} />;
  if (id !== null && !role.data) return <PageLoader label="Loading the portal role" />;
  return <PortalRoleForm key={role.data?.id ?? 'new'} role={role.data ?? null} />;
}

function PortalRoleForm({ role }: { role: PortalRole | null }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const canAdmin = hasAllPermissions(usePermissions().data ?? [], ['ADMIN']);
  const [message, setMessage] = useState<PageMessage | null>(null);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const form = useForm<Values>({
    initialValues: { description: role?.description ?? '', permission: role?.permissions[0] ?? '' },
    validate: {
      description: (v) => (v.trim() ? null : 'Role Name is required'),
      permission: (v) => (v ? null : M.selectPermission),
    },
  });
  const readOnly = !canAdmin;
  const guard = useUnsavedChanges(!readOnly && form.isDirty());
  const done = (text: string) => {
    guard.release();
    invalidateConfiguration(queryClient);
    notifications.show({ color: 'green', title: 'Success', message: text });
    navigate(BACK.to);
  };

  const save = useMutation({
    mutationFn: (v: Values) => {
      const body = { description: v.description.trim(), permissions: [v.permission] };
      if (!role) return apiPost<PortalRole>(`${CONFIG_PATHS.portalRoles}/create`, body);
      return apiPut<PortalRole>(`${CONFIG_PATHS.portalRoles}/update`, { ...body, id: role.id, sort: role.sort });
    },
    onMutate: () => setMessage(null),
    onSuccess: (res, v) => {
      if (res.status === 304) return setMessage({ kind: 'info', text: CONFIG_MESSAGES.noChanges });
      const name = res.data?.description ?? v.description.trim();
      done(role ? M.updated(name) : M.created(name));
    },
    onError: (error) => {
      const failure = describeFailure(error, role ? M.updateFailed : M.createFailed, LABELS);
      form.setErrors({ description: failure.fieldErrors.description, permission: failure.fieldErrors.permissions });
      setMessage(failure.message);
    },
  });

  const users = useQuery({
    queryKey: ['configure', 'inUse', 'portalRole', role?.id],
    queryFn: () => inUse.portalRoleUsers(role!.id),
    enabled: deleteOpen && !!role,
    staleTime: 0,
  });
  const toggle = useMutation({
    mutationFn: (action: 'activate' | 'deactivate') =>
      apiPut<PortalRole>(`${CONFIG_PATHS.portalRoles}/${action}/${role!.id}`),
    onMutate: () => setMessage(null),
    onSuccess: (res, action) => {
      // 001 §7: a non-OK answer (a 304 too) is an error.
      if (res.status !== 200) return onToggleError(new Error(''), action);
      setDeleteOpen(false);
      done(action === 'deactivate' ? CONFIG_MESSAGES.deleted : M.updated(role!.description));
    },
    onError: (error, action) => onToggleError(error, action),
  });
  function onToggleError(error: unknown, action: 'activate' | 'deactivate') {
    setDeleteOpen(false);
    const failure = describeFailure(error, action === 'deactivate' ? M.deleteFailed : M.toggleFailed(action), LABELS);
    if (action === 'deactivate') failure.message.details = [M.toggleFailed(action), ...(failure.message.details ?? [])];
    setMessage(failure.message);
  }

  const onSubmit = form.onSubmit((v) => {
    if (role && !role.id) return setMessage({ kind: 'error', text: MESSAGES.access.errorSubmitting(SUPPORT_EMAIL) });
    save.mutate(v);
  });
  const held = role?.permissions ?? [];
  const activeUsers = users.data ?? [];

  return (
    <ConfigFormShell
      title={role ? 'Edit Portal Role' : 'Add Portal Role'}
      back={BACK}
      readOnly={readOnly}
      auditLink={role ? auditTrailUrl('PortalRole', role.id) : undefined}
      inactive={role?.inactive}
      message={message}
      onCloseMessage={() => setMessage(null)}
      onSubmit={onSubmit}
      dialogs={
        <>
          {guard.dialog}
          <InUseDialog
            opened={deleteOpen}
            title="Delete Portal Role?"
            loading={users.isFetching}
            loadError={users.isError ? M.loadReferences('users') : null}
            sections={[
              {
                summary: countSentence(activeUsers.length, 'active user', 'active users', 'this portal role'),
                items: activeUsers.map((u) => `${u.firstName} ${u.lastName} (${u.username})`),
              },
            ]}
            noneText="No active references were found."
            confirmLabel="Delete Portal Role"
            deleting={toggle.isPending}
            onConfirm={() => toggle.mutate('deactivate')}
            onClose={() => setDeleteOpen(false)}
          />
        </>
      }
      actions={
        <FormButtons
          noun="Portal Role"
          editing={role}
          pending={save.isPending}
          toggling={toggle.isPending}
          onReset={() => {
            form.reset();
            setMessage(null);
          }}
          onCancel={() => navigate(BACK.to)}
          onActivate={() => toggle.mutate('activate')}
          onDelete={() => setDeleteOpen(true)}
        />
      }
    >
      <CountedTextInput
        label="Role Name"
        maxLength={FIELD_LIMITS.portalRoleName}
        readOnly={readOnly}
        required
        {...form.getInputProps('description')}
        value={form.values.description}
        onBlur={() => form.setFieldValue('description', form.values.description.trim())}
      />
      <Radio.Group label="Permissions" required withAsterisk={false} {...form.getInputProps('permission')}>
        <Stack gap="xs" mt="xs">
          {PERMISSIONS.map((p) => (
            <Radio key={p} value={p} label={p} description={PERMISSION_DESCRIPTIONS[p]} disabled={readOnly} />
          ))}
        </Stack>
      </Radio.Group>
      {held.length > 1 && (
        <Text size="sm" c="dimmed">
          This role holds {held.join(', ')}; saving keeps only the permission chosen above.
        </Text>
      )}
    </ConfigFormShell>
  );
}

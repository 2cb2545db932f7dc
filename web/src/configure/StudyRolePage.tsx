import { Checkbox, Group, SimpleGrid, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import {
  CONFIG_MESSAGES,
  CONSTANTS,
  FIELD_LIMITS,
  hasAllPermissions,
  studyRoleRuleErrors,
  type StudyRoleListItem,
} from '@portal/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { apiPost, apiPut } from '../app/api';
import { usePermissions } from '../app/queries';
import { PageLoader } from '../auth/SecurePage';
import { CountedTextarea, CountedTextInput } from '../shared/CountedText';
import { LoadError, type PageMessage } from '../shared/ErrorAlert';
import { useUnsavedChanges } from '../shared/UnsavedChanges';
import { usePageTitle } from '../shared/usePageTitle';
import {
  CONFIG_PATHS,
  CONFIG_ROUTES,
  inUse,
  invalidateConfiguration,
  parseId,
  useStudyRole,
  useSystemsAdmin,
} from './api';
import { auditTrailUrl } from '../audit-trail/query';
import { ConfigFormShell, FormButtons } from './ConfigFormShell';
import { describeFailure, type FieldLabels } from './errors';
import { studyRoleInUseSections } from './inUseSections';
import { InUseDialog } from './InUseDialog';

const M = CONFIG_MESSAGES.studyRoles;
const LABELS: FieldLabels = {
  roleName: { label: 'Role Name' },
  description: { label: 'Description' },
  siteRequired: { label: 'AOs/LAOs Required' },
  studyRequired: { label: 'Studies Required' },
  allowAOs: { label: 'Allow AOs' },
  allowLAOs: { label: 'Allow LAOs' },
  systemAccessIds: { label: 'Default Applications', plural: true },
};
const BACK = { to: CONFIG_ROUTES.tab('studyRoles'), label: 'Back to Study Roles' };

interface Values {
  roleName: string;
  description: string;
  siteRequired: boolean;
  studyRequired: boolean;
  allowAOs: boolean;
  allowLAOs: boolean;
  systemAccessIds: string[];
}

/** /app/configure/study-roles/new and /app/configure/study-roles/{id}: add mode without an id, edit mode with one (001 §2.12). */
export function StudyRolePage() {
  const id = parseId(useParams().id);
  const role = useStudyRole(id !== null && id > 0 ? id : null);
  const systems = useSystemsAdmin();
  usePageTitle(id === null ? 'Add Study Role' : 'Edit Study Role');
  if (id === -1 || role.isError)
    return <LoadError text={M.load} onRetry={id === -1 ? undefined : () => void role.refetch()} />;
  if (systems.isError)
    return <LoadError text={CONFIG_MESSAGES.systems.loadAll} onRetry={() => void systems.refetch()} />;
  if ((id !== null && !role.data) || !systems.data) return <PageLoader label="Loading the study role" />;
  return <StudyRoleForm key={role.data?.id ?? 'new'} role={role.data ?? null} systems={systems.data} />;
}

function StudyRoleForm({
  role,
  systems,
}: {
  role: StudyRoleListItem | null;
  systems: NonNullable<ReturnType<typeof useSystemsAdmin>['data']>;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const readOnly = !hasAllPermissions(usePermissions().data ?? [], ['ADMIN']);
  const [message, setMessage] = useState<PageMessage | null>(null);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const fixed =
    systems.find((s) => s.fixed && !s.inactive) ?? systems.find((s) => s.systemName === CONSTANTS.fixedSystemName);
  // Active systems, plus inactive ones the role already has (shown so they can be removed).
  const offered = systems
    .filter((s) => !s.inactive || role?.systemAccessIds.includes(s.id))
    .sort((a, b) => Number(b.fixed) - Number(a.fixed) || a.sort - b.sort || a.systemName.localeCompare(b.systemName));
  const initialSystems = role ? role.systemAccessIds.map(String) : fixed ? [String(fixed.id)] : [];
  const form = useForm<Values>({
    initialValues: {
      roleName: role?.roleName ?? '',
      description: role?.description ?? '',
      siteRequired: role?.siteRequired ?? false,
      studyRequired: role?.studyRequired ?? false,
      allowAOs: role?.allowAOs ?? true,
      allowLAOs: role?.allowLAOs ?? true,
      // 001 §5: the default system is always pre-selected in the study-role editor.
      systemAccessIds:
        fixed && !initialSystems.includes(String(fixed.id)) ? [String(fixed.id), ...initialSystems] : initialSystems,
    },
    validate: (v) => ({
      roleName: v.roleName.trim() ? null : 'Role Name is required',
      description: v.description.trim() ? null : 'Description is required',
      systemAccessIds: v.systemAccessIds.length ? null : M.atLeastOneSystem,
      siteRequired: studyRoleRuleErrors(v).siteRequired?.[0] ?? null,
    }),
  });
  const guard = useUnsavedChanges(!readOnly && form.isDirty());
  const done = (text: string) => {
    guard.release();
    invalidateConfiguration(queryClient);
    notifications.show({ color: 'green', title: 'Success', message: text });
    navigate(BACK.to);
  };

  const save = useMutation({
    mutationFn: (v: Values) => {
      const body = {
        ...v,
        roleName: v.roleName.trim(),
        description: v.description.trim(),
        systemAccessIds: v.systemAccessIds.map(Number),
        sort: role?.sort ?? 0,
      };
      if (!role) return apiPost<StudyRoleListItem>(`${CONFIG_PATHS.studyRoles}/`, body);
      return apiPut<StudyRoleListItem>(`${CONFIG_PATHS.studyRoles}/${role.id}`, body);
    },
    onMutate: () => setMessage(null),
    onSuccess: (res, v) => {
      if (res.status === 304) return setMessage({ kind: 'info', text: CONFIG_MESSAGES.noChanges });
      const name = res.data?.roleName ?? v.roleName.trim();
      done(role ? M.updated(name) : M.created(name));
    },
    onError: (error) => {
      const failure = describeFailure(error, role ? M.updateFailed : M.createFailed, LABELS);
      form.setErrors(failure.fieldErrors);
      setMessage(failure.message);
    },
  });

  const refs = useQuery({
    queryKey: ['configure', 'inUse', 'studyRole', role?.id],
    queryFn: () => inUse.studyRole(role!.id),
    enabled: deleteOpen && !!role,
    staleTime: 0,
  });
  const toggle = useMutation({
    mutationFn: (action: 'activate' | 'deactivate') =>
      apiPut<StudyRoleListItem>(`${CONFIG_PATHS.studyRoles}/${role!.id}/${action}`),
    onMutate: () => setMessage(null),
    onSuccess: (res, action) => {
      setDeleteOpen(false);
      if (res.status === 304) return setMessage({ kind: 'info', text: M.alreadyInState });
      done(action === 'deactivate' ? CONFIG_MESSAGES.deleted : M.updated(role!.roleName));
    },
    onError: (error, action) => {
      setDeleteOpen(false);
      const failure = describeFailure(error, action === 'deactivate' ? M.deleteFailed : M.toggleFailed, LABELS);
      if (action === 'deactivate') failure.message.details = [M.toggleFailed, ...(failure.message.details ?? [])];
      setMessage(failure.message);
    },
  });

  const field = (name: keyof Values) => ({ ...form.getInputProps(name, { type: 'checkbox' }), disabled: readOnly });
  return (
    <ConfigFormShell
      title={role ? 'Edit Study Role' : 'Add Study Role'}
      back={BACK}
      readOnly={readOnly}
      auditLink={role ? auditTrailUrl('StudyRole', role.id) : undefined}
      inactive={role?.inactive}
      message={message}
      onCloseMessage={() => setMessage(null)}
      onSubmit={form.onSubmit((v) => save.mutate(v))}
      dialogs={
        <>
          {guard.dialog}
          <InUseDialog
            opened={deleteOpen}
            title="Delete Study Role?"
            loading={refs.isFetching}
            loadError={refs.isError ? M.loadReferences : null}
            sections={studyRoleInUseSections(refs.data)}
            noneText="No active references were found."
            confirmLabel="Delete Study Role"
            deleting={toggle.isPending}
            onConfirm={() => toggle.mutate('deactivate')}
            onClose={() => setDeleteOpen(false)}
          />
        </>
      }
      actions={
        <FormButtons
          noun="Study Role"
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
        maxLength={FIELD_LIMITS.studyRoleName}
        readOnly={readOnly}
        required
        {...form.getInputProps('roleName')}
        value={form.values.roleName}
      />
      <CountedTextarea
        label="Description"
        maxLength={FIELD_LIMITS.studyRoleDescription}
        readOnly={readOnly}
        required
        {...form.getInputProps('description')}
        value={form.values.description}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Stack gap="xs">
          <Checkbox label="Allow AOs" description="Users may pick affiliate organizations" {...field('allowAOs')} />
          <Checkbox
            label="Allow LAOs"
            description="Users may pick lead academic organizations"
            {...field('allowLAOs')}
          />
        </Stack>
        <Stack gap="xs">
          <Checkbox
            label="AOs/LAOs Required"
            description="At least one AO or LAO must be chosen"
            {...field('siteRequired')}
          />
          <Checkbox
            label="Studies Required"
            description="At least one study must be chosen"
            {...field('studyRequired')}
          />
        </Stack>
      </SimpleGrid>
      <Checkbox.Group
        label="Default Applications"
        withAsterisk={false}
        description={`Systems pre-selected in a request for this role; ${CONSTANTS.fixedSystemName} is always included.`}
        required
        {...form.getInputProps('systemAccessIds')}
      >
        <Group mt="xs" gap="md">
          {offered.map((s) => (
            <Checkbox
              key={s.id}
              value={String(s.id)}
              label={s.inactive ? `${s.systemName} (inactive)` : s.systemName}
              disabled={readOnly || s.id === fixed?.id}
            />
          ))}
        </Group>
      </Checkbox.Group>
    </ConfigFormShell>
  );
}

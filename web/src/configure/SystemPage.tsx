import { Alert } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { CONFIG_MESSAGES, FIELD_LIMITS, hasAllPermissions, type SystemDetail } from '@portal/contract';
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
import { CONFIG_PATHS, CONFIG_ROUTES, inUse, invalidateConfiguration, parseId, useSystem } from './api';
import { auditTrailUrl } from '../audit-trail/query';
import { ConfigFormShell, FormButtons } from './ConfigFormShell';
import { describeFailure, type FieldLabels } from './errors';
import { systemInUseSections } from './inUseSections';
import { InUseDialog } from './InUseDialog';

const M = CONFIG_MESSAGES.systems;
const LABELS: FieldLabels = { systemName: { label: 'System Name' }, description: { label: 'Description' } };
const BACK = { to: CONFIG_ROUTES.tab('systems'), label: 'Back to Systems' };

interface Values {
  systemName: string;
  description: string;
}

/** /app/configure/systems/new 'Add System' and /app/configure/systems/{id} 'Edit System' (001 §2.12). */
export function SystemPage() {
  const id = parseId(useParams().id);
  const system = useSystem(id !== null && id > 0 ? id : null);
  usePageTitle(id === null ? 'Add System' : 'Edit System');
  if (id === -1 || system.isError)
    return <LoadError text={M.load} onRetry={id === -1 ? undefined : () => void system.refetch()} />;
  if (id !== null && !system.data) return <PageLoader label="Loading the system" />;
  return <SystemForm key={system.data?.id ?? 'new'} system={system.data ?? null} />;
}

function SystemForm({ system }: { system: SystemDetail | null }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const readOnly = !hasAllPermissions(usePermissions().data ?? [], ['ADMIN']);
  const [message, setMessage] = useState<PageMessage | null>(null);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const form = useForm<Values>({
    initialValues: { systemName: system?.systemName ?? '', description: system?.description ?? '' },
    validate: { systemName: (v) => (v.trim() ? null : 'System Name is required') },
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
      const body = { systemName: v.systemName.trim(), description: v.description.trim(), sort: system?.sort ?? 0 };
      if (!system) return apiPost<SystemDetail>(`${CONFIG_PATHS.systems}/`, body);
      return apiPut<SystemDetail>(`${CONFIG_PATHS.systems}/${system.id}`, body);
    },
    onMutate: () => setMessage(null),
    onSuccess: (res, v) => {
      if (res.status === 304) return setMessage({ kind: 'info', text: CONFIG_MESSAGES.noChanges });
      done(M.saved(res.data?.systemName ?? v.systemName.trim()));
    },
    onError: (error) => {
      const failure = describeFailure(error, system ? M.updateFailed : M.createFailed, LABELS);
      form.setErrors(failure.fieldErrors);
      setMessage(failure.message);
    },
  });

  const refs = useQuery({
    queryKey: ['configure', 'inUse', 'system', system?.id],
    queryFn: () => inUse.system(system!.id),
    enabled: deleteOpen && !!system,
    staleTime: 0,
  });
  const toggle = useMutation({
    mutationFn: (action: 'activate' | 'deactivate') =>
      apiPut<SystemDetail>(`${CONFIG_PATHS.systems}/${system!.id}/${action}/`),
    onMutate: () => setMessage(null),
    onSuccess: (res, action) => {
      setDeleteOpen(false);
      if (res.status === 304) return setMessage({ kind: 'info', text: M.alreadyInState });
      done(action === 'deactivate' ? CONFIG_MESSAGES.deleted : M.saved(system!.systemName));
    },
    onError: (error, action) => {
      setDeleteOpen(false);
      const failure = describeFailure(error, action === 'deactivate' ? M.deleteFailed : M.toggleFailed(action), LABELS);
      if (action === 'deactivate')
        failure.message.details = [M.toggleFailed(action), ...(failure.message.details ?? [])];
      form.setErrors(failure.fieldErrors);
      setMessage(failure.message);
    },
  });

  return (
    <ConfigFormShell
      title={system ? 'Edit System' : 'Add System'}
      back={BACK}
      readOnly={readOnly}
      auditLink={system ? auditTrailUrl('SystemAccess', system.id) : undefined}
      inactive={system?.inactive}
      message={message}
      onCloseMessage={() => setMessage(null)}
      onSubmit={form.onSubmit((v) => save.mutate(v))}
      dialogs={
        <>
          {guard.dialog}
          <InUseDialog
            opened={deleteOpen}
            title="Delete System?"
            loading={refs.isFetching}
            loadError={refs.isError ? M.loadReferences('items') : null}
            sections={systemInUseSections(refs.data)}
            noneText="No active references were found."
            confirmLabel="Delete System"
            deleting={toggle.isPending}
            onConfirm={() => toggle.mutate('deactivate')}
            onClose={() => setDeleteOpen(false)}
          />
        </>
      }
      actions={
        <FormButtons
          noun="System"
          editing={system}
          pending={save.isPending}
          toggling={toggle.isPending}
          onReset={() => {
            form.reset();
            setMessage(null);
          }}
          onCancel={() => navigate(BACK.to)}
          onActivate={() => toggle.mutate('activate')}
          onDelete={() => setDeleteOpen(true)}
          lifecycle={!system?.fixed}
        />
      }
    >
      {system?.fixed && (
        <Alert color="blue" role="status">
          This is the fixed system: every role block includes it, so its name cannot change and it cannot be deleted.
        </Alert>
      )}
      <CountedTextInput
        label="System Name"
        maxLength={FIELD_LIMITS.systemName}
        readOnly={readOnly || !!system?.fixed}
        required
        {...form.getInputProps('systemName')}
        value={form.values.systemName}
      />
      <CountedTextarea
        label="Description (optional)"
        maxLength={FIELD_LIMITS.systemDescription}
        readOnly={readOnly}
        {...form.getInputProps('description')}
        value={form.values.description}
      />
    </ConfigFormShell>
  );
}

import { useForm, type UseFormInput, type UseFormReturnType } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { CONFIG_MESSAGES, MESSAGES } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { SUPPORT_EMAIL } from '../../lib/config';
import { paths } from '../../lib/paths';
import { useHasPermissions } from '../../lib/sessionQueries';
import type { PageMessage } from '../../shared/ErrorAlert';
import { useUnsavedChanges } from '../../shared/UnsavedChanges';
import { configInUseQueryOptions } from '../api/getConfigInUse';
import type { ConfigRecord, ToggleAction } from '../api/resources';
import { useSaveConfigRecord } from '../api/saveConfigRecord';
import { useToggleConfigRecord } from '../api/toggleConfigRecord';
import { describeFailure } from '../errors';
import type { InUseSection } from '../InUseDialog';
import type { ConfigKind } from './kind';
import { FIELDS_NEED_ATTENTION, focusFirstInvalid } from '../../shared/invalidFields';

/** Everything `ConfigEditor` renders besides the page's fields. */
export interface ConfigEditorState<R extends ConfigRecord, V> {
  kind: { noun: string; auditEntity: ConfigKind<R, V, unknown>['auditEntity']; loadReferences: string };
  record: R | null;
  form: UseFormReturnType<V>;
  /** Viewers without ADMIN see the editor read-only (docs/decisions.md). */
  readOnly: boolean;
  back: { to: string; label: string };
  message: PageMessage | null;
  clearMessage: () => void;
  onSubmit: (event?: FormEvent<HTMLFormElement>) => void;
  reset: () => void;
  cancel: () => void;
  saving: boolean;
  toggling: boolean;
  activate: () => void;
  guardDialog: ReactNode;
  deleteDialog: {
    opened: boolean;
    open: () => void;
    close: () => void;
    confirm: () => void;
    loading: boolean;
    loadError: string | null;
    sections: InUseSection[];
  };
}

/**
 * The controller of a configuration editor (001 §2.12, §4, §8): the form (the page gives initial values and
 * validation), the page message, the unsaved-changes guard, save (create or update: 'no changes' on 304,
 * 422 fieldErrors beside their fields), activate / delete (a deactivation, after the in-use dialog) and,
 * after a change, the success notification and the way back to the kind's tab.
 */
export function useConfigEditor<R extends ConfigRecord, V extends Record<string, unknown>, Refs>(
  kind: ConfigKind<R, V, Refs>,
  record: R | null,
  formInput: Pick<UseFormInput<V>, 'initialValues' | 'validate'>,
): ConfigEditorState<R, V> {
  const navigate = useNavigate();
  const readOnly = !useHasPermissions('ADMIN');
  const [message, setMessage] = useState<PageMessage | null>(null);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const form = useForm<V>(formInput);
  const guard = useUnsavedChanges(!readOnly && form.isDirty());
  const back = { to: paths.app.configure.href(kind.tab.tab), label: kind.tab.label };
  const { texts } = kind;

  const done = (text: string) => {
    guard.release();
    notifications.show({ color: 'green', title: 'Success', message: text });
    void navigate(back.to);
  };

  const save = useSaveConfigRecord(kind.resource, {
    mutationConfig: {
      onMutate: () => setMessage(null),
      onSuccess: (res, input) => {
        if (res.status === 304) return setMessage({ kind: 'info', text: CONFIG_MESSAGES.noChanges });
        const name = res.data ? kind.name.ofRecord(res.data) : kind.name.fromValues(form.getValues());
        done(texts.saved(name, input.id === null ? 'created' : 'updated'));
      },
      onError: (error) => {
        const failure = describeFailure(error, record ? texts.updateFailed : texts.createFailed, kind.labels);
        form.setErrors(failure.fieldErrors);
        setMessage(failure.message);
      },
    },
  });

  const toggleFailed = (error: unknown, action: ToggleAction) => {
    setDeleteOpen(false);
    const failure = describeFailure(
      error,
      action === 'deactivate' ? texts.deleteFailed : texts.toggleFailed(action),
      kind.labels,
    );
    // A failed delete names the spec's toggle text too (001 §8 lists both).
    if (action === 'deactivate')
      failure.message.details = [texts.toggleFailed(action), ...(failure.message.details ?? [])];
    form.setErrors(failure.fieldErrors);
    setMessage(failure.message);
  };
  const toggle = useToggleConfigRecord(kind.resource, {
    mutationConfig: {
      onMutate: () => setMessage(null),
      onSuccess: (res, { action }) => {
        if (kind.toggleNotModified.kind === 'error' && res.status !== 200) return toggleFailed(new Error(''), action);
        setDeleteOpen(false);
        if (res.status === 304 && kind.toggleNotModified.kind === 'info') {
          return setMessage({ kind: 'info', text: kind.toggleNotModified.text });
        }
        done(action === 'deactivate' ? CONFIG_MESSAGES.deleted : texts.saved(kind.name.ofRecord(record!), 'updated'));
      },
      onError: (error, { action }) => toggleFailed(error, action),
    },
  });

  const refs = useQuery({
    ...configInUseQueryOptions(kind.resource, record?.id ?? 0),
    enabled: deleteOpen && !!record,
  });

  const onInvalid = (_errors: unknown, _values: unknown, event?: FormEvent<HTMLFormElement>) => {
    setMessage({ kind: 'error', text: FIELDS_NEED_ATTENTION });
    focusFirstInvalid(event);
  };

  return {
    kind: { noun: kind.noun, auditEntity: kind.auditEntity, loadReferences: texts.loadReferences },
    record,
    form,
    readOnly,
    back,
    message,
    clearMessage: () => setMessage(null),
    onSubmit: form.onSubmit((values) => {
      // A record without an id cannot be saved; the spec's text sends the user to support.
      if (record && !record.id)
        return setMessage({ kind: 'error', text: MESSAGES.access.errorSubmitting(SUPPORT_EMAIL) });
      save.mutate({ id: record?.id ?? null, body: kind.toBody(values, record) });
    }, onInvalid),
    reset: () => {
      form.reset();
      setMessage(null);
    },
    cancel: () => void navigate(back.to),
    saving: save.isPending,
    toggling: toggle.isPending,
    activate: () => record && toggle.mutate({ id: record.id, action: 'activate' }),
    guardDialog: guard.dialog,
    deleteDialog: {
      opened: deleteOpen,
      open: () => setDeleteOpen(true),
      close: () => setDeleteOpen(false),
      confirm: () => record && toggle.mutate({ id: record.id, action: 'deactivate' }),
      loading: refs.isFetching,
      loadError: refs.isError ? texts.loadReferences : null,
      sections: kind.inUseSections(refs.data),
    },
  };
}

import type { UseFormReturnType } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { CONFIG_MESSAGES, DASHBOARD_RESOURCE_MESSAGES as M } from '@portal/contract';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { ApiResponse } from '../../lib/apiClient';
import type { PageMessage } from '../../shared/ErrorAlert';
import { useUnsavedChanges } from '../../shared/UnsavedChanges';
import { describeFailure, type FieldLabels } from '../errors';
import { useResourceChange } from './useResourceChange';

/**
 * The controller shared by the category and item editors (issue 23), with the habits of the other Configure
 * editors (001 §2.12): the page message, the unsaved-changes guard, and the save's outcomes: 304 'There are no
 * changes to submit.', 422 fieldErrors beside their fields with the spec's texts (000 §5), or the success
 * notification and the way back to the tab; activate, deactivate and delete likewise.
 */
export function useResourceEditor<V, T>(
  form: UseFormReturnType<V>,
  opts: {
    back: string;
    failedText: string;
    labels: (values: V) => FieldLabels;
    /** The saved record's name in the success text. */
    savedName: (saved: T | undefined, values: V) => string;
  },
) {
  const navigate = useNavigate();
  const [message, setMessage] = useState<PageMessage | null>(null);
  const guard = useUnsavedChanges(form.isDirty());
  const done = (text: string) => {
    guard.release();
    notifications.show({ color: 'green', title: 'Success', message: text });
    void navigate(opts.back);
  };
  const change = useResourceChange({
    onMessage: setMessage,
    onDone: ({ action, name }) => done(action === 'delete' ? M.deleted : `${name} ${action}d`),
  });
  const saveConfig = {
    onMutate: () => setMessage(null),
    onSuccess: (res: ApiResponse<T>) => {
      if (res.status === 304) return setMessage({ kind: 'info', text: CONFIG_MESSAGES.noChanges });
      done(M.saved(opts.savedName(res.data, form.getValues())));
    },
    onError: (error: Error) => {
      const failure = describeFailure(error, opts.failedText, opts.labels(form.getValues()));
      form.setErrors(failure.fieldErrors);
      setMessage(failure.message);
    },
  };
  return {
    message,
    clearMessage: () => setMessage(null),
    guardDialog: guard.dialog,
    saveConfig,
    change,
    reset: () => {
      form.reset();
      setMessage(null);
    },
    cancel: () => void navigate(opts.back),
  };
}

import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { CONFIG_MESSAGES, DASHBOARD_RESOURCE_MESSAGES as M } from '@portal/contract';
import type { PageMessage } from '../../shared/ErrorAlert';
import { describeFailure } from '../errors';
import { useChangeResource, type ChangeResourceInput, type ResourceKind } from './api/changeResource';

/** A category or item as a change names it. */
export interface ChangeTarget {
  kind: ResourceKind;
  id: number;
  name: string;
}

const NOUNS: Record<ResourceKind, string> = { category: 'Category', item: 'Dashboard Item' };

/** The failure text of a change (the spec words none for resources; written in its style, 001 §8). */
function failureText(kind: ResourceKind, action: ChangeResourceInput['action']): string {
  if (action === 'delete') return kind === 'category' ? M.deleteCategoryFailed : M.deleteItemFailed;
  return kind === 'category' ? M.saveCategoryFailed : M.saveItemFailed;
}

/**
 * Activate, deactivate and delete of a resource category or a dashboard item (issue 23), for the Categories
 * tree and both editors: a delete asks first (it cannot be undone), a success shows a notification and calls
 * `onDone`, a 304 or a refusal goes to `onMessage` (a category with active children: 'Resource category has
 * active child category(ies)', 001 §8, shown as the server words it).
 */
export function useResourceChange({
  onMessage,
  onDone,
}: {
  onMessage: (message: PageMessage | null) => void;
  onDone?: (input: ChangeResourceInput) => void;
}) {
  const change = useChangeResource({
    mutationConfig: {
      onMutate: () => onMessage(null),
      onSuccess: (res, input) => {
        if (res.status === 304) return onMessage({ kind: 'info', text: CONFIG_MESSAGES.noChanges });
        const text = input.action === 'delete' ? M.deleted : `${input.name} ${input.action}d`;
        notifications.show({ color: 'green', title: 'Success', message: text });
        onDone?.(input);
      },
      onError: (error, input) => onMessage(describeFailure(error, failureText(input.kind, input.action), {}).message),
    },
  });

  const run = (target: ChangeTarget, action: ChangeResourceInput['action']) => {
    const input = { kind: target.kind, id: target.id, action, name: target.name };
    if (action !== 'delete') return change.mutate(input);
    const noun = NOUNS[target.kind];
    modals.openConfirmModal({
      title: `Delete ${noun}?`,
      children: (
        <Text size="sm">
          {target.kind === 'category'
            ? `'${target.name}' is removed for good. A category that still holds items or active child categories cannot be deleted.`
            : `'${target.name}' is removed for good, with its file and picture unless another item uses them.`}
        </Text>
      ),
      labels: { confirm: `Delete ${noun}`, cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => change.mutate(input),
    });
  };

  return { run, pending: change.isPending, variables: change.variables };
}

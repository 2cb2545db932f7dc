import { Alert, Anchor, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { MESSAGES } from '@portal/contract';
import type { FormEvent, ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { MessageAlert, type PageMessage } from '../shared/ErrorAlert';

export interface ConfigFormShellProps {
  title: string;
  back: { to: string; label: string };
  readOnly: boolean;
  inactive?: boolean;
  message: PageMessage | null;
  onCloseMessage: () => void;
  onSubmit: (event?: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
  /** Buttons under the fields (shown only to those who may change the configuration). */
  actions: ReactNode;
  /** The unsaved-changes dialog and other dialogs. */
  dialogs?: ReactNode;
  /** The record's history in the audit trail (edit mode). */
  auditLink?: string;
}

/**
 * The frame of the three configuration editors (001 §2.12): title, back link, the form note, a read-only
 * notice for viewers without ADMIN, the page message, the fields and the buttons.
 */
export function ConfigFormShell(props: ConfigFormShellProps) {
  const { title, back, readOnly, inactive, message } = props;
  return (
    <Stack gap="md" maw={820}>
      {props.dialogs}
      <Group justify="space-between">
        <Anchor component={Link} to={back.to} size="sm">
          &larr; {back.label}
        </Anchor>
        {props.auditLink && (
          <Anchor component={Link} to={props.auditLink} size="sm">
            View changes in the Audit Trail
          </Anchor>
        )}
      </Group>
      <Group gap="sm">
        <Title order={1}>{title}</Title>
        {inactive && (
          <Badge color="gray" size="lg" variant="light">
            Inactive
          </Badge>
        )}
      </Group>
      <MessageAlert message={message} onClose={props.onCloseMessage} />
      {readOnly && (
        <Alert color="gray" title="Read-only" role="status">
          You can view the configuration; changing it needs the ADMIN permission.
        </Alert>
      )}
      <Paper withBorder p="md">
        <form onSubmit={props.onSubmit} noValidate aria-label={title}>
          <Stack gap="md">
            {!readOnly && (
              <Text size="sm" c="dimmed">
                {MESSAGES.formNote}
              </Text>
            )}
            {props.children}
            {!readOnly && <Group mt="sm">{props.actions}</Group>}
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}

/**
 * An editor's buttons (001 §2.12): 'Create {noun}' or 'Save {noun}', 'Reset', 'Cancel' and, when editing,
 * 'Delete {noun}' (a deactivation, 001 §4) or 'Activate {noun}' for an inactive record; `lifecycle` false
 * hides the last (the fixed system).
 */
export function FormButtons(props: {
  noun: string;
  editing: { inactive: boolean } | null | undefined;
  pending: boolean;
  toggling: boolean;
  onReset: () => void;
  onCancel: () => void;
  onActivate: () => void;
  onDelete: () => void;
  lifecycle?: boolean;
}) {
  const { noun, editing, pending } = props;
  return (
    <>
      <Button type="submit" loading={pending}>
        {editing ? `Save ${noun}` : `Create ${noun}`}
      </Button>
      <Button variant="default" onClick={props.onReset} disabled={pending}>
        Reset
      </Button>
      <Button variant="subtle" onClick={props.onCancel} disabled={pending}>
        Cancel
      </Button>
      {editing &&
        props.lifecycle !== false &&
        (editing.inactive ? (
          <Button color="green" variant="light" loading={props.toggling} onClick={props.onActivate}>
            Activate {noun}
          </Button>
        ) : (
          <Button color="red" variant="light" onClick={props.onDelete} ml="auto">
            Delete {noun}
          </Button>
        ))}
    </>
  );
}

import { Alert, Button, Paper, Stack, Title } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { MessageAlert, type PageMessage } from '../../../shared/ErrorAlert';
import { FormActions } from '../../../shared/FormActions';

/**
 * The 'Review' section of every review screen (001 §2.8, §4): the page message (with 'Reload request' after a
 * stale save), the locked and read-only notices, the kind's fields, 'Save Changes' and 'Reset' (only while
 * the form may change), and the screen's dialogs.
 */
export function ReviewFormShell({
  message,
  onCloseMessage,
  stale,
  onReload,
  locked,
  readOnlyNotice,
  editable,
  saving,
  onSubmit,
  onReset,
  dialogs,
  children,
}: {
  message: PageMessage | null;
  onCloseMessage: () => void;
  stale: boolean;
  onReload: () => void;
  /** Shown when the request is resolved: the reason nothing can change. */
  locked: ReactNode;
  /** Shown to viewers without the kind's write permission. */
  readOnlyNotice: ReactNode;
  editable: boolean;
  saving: boolean;
  onSubmit: (event?: FormEvent<HTMLFormElement>) => void;
  onReset: () => void;
  dialogs?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="review-heading">
      {dialogs}
      <form onSubmit={onSubmit} noValidate aria-labelledby="review-heading">
        <Stack gap="md">
          <Title order={2} id="review-heading">
            Review
          </Title>
          <MessageAlert message={message} onClose={onCloseMessage}>
            {stale && (
              <Button size="compact-sm" mt="xs" variant="white" color="red" onClick={onReload}>
                Reload request
              </Button>
            )}
          </MessageAlert>
          {locked && (
            <Alert color="gray" title="Request locked" role="status">
              {locked}
            </Alert>
          )}
          {readOnlyNotice && (
            <Alert color="gray" title="Read-only" role="status">
              {readOnlyNotice}
            </Alert>
          )}
          {children}
          {editable && <FormActions label="Save Changes" pending={saving} onReset={onReset} />}
        </Stack>
      </form>
    </Paper>
  );
}

import { Badge, Button, Group, Modal, Paper, Text, Title } from '@mantine/core';
import { USER_DETAIL_MESSAGES, type UserDetail } from '@portal/contract';
import { useState } from 'react';
import type { SignatureCredentials } from '../lib/signature';
import { SigningForm } from '../shared/signature/SigningForm';

/**
 * The status section of the Account tab (000 §2 User detail, §4 User status): the current status and the
 * 'Change to Active' / 'Change to Inactive' button, which asks first in the 'Change User Status' dialog. With
 * `signingMeanings` (signatures on) the dialog keeps its question and buttons and gains the signing fields; the
 * change is then made by `onChange` with the credentials (USER_STATUS).
 */
export function StatusSection({
  user,
  readOnly,
  busy,
  onChange,
  signingMeanings,
}: {
  user: UserDetail;
  readOnly: boolean;
  busy: boolean;
  onChange: (action: 'activate' | 'deactivate', credentials?: SignatureCredentials) => unknown;
  /** The meanings of USER_STATUS when signatures are on; undefined: the spec's dialog. */
  signingMeanings?: string[];
}) {
  const [open, setOpen] = useState(false);
  const next = user.inactive ? 'Active' : 'Inactive';
  const question = (
    <Text>
      Change the status of {user.firstName} {user.lastName} to {next}?
      {!user.inactive && ' They are signed out at once and can no longer sign in.'}
    </Text>
  );
  const label = user.inactive ? USER_DETAIL_MESSAGES.toActive : USER_DETAIL_MESSAGES.toInactive;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="user-status-heading">
      <Title order={2} mb="sm" id="user-status-heading">
        Status
      </Title>
      <Group gap="md">
        <Badge color={user.inactive ? 'gray' : 'green'} variant="light" data-testid="user-status">
          {user.inactive ? 'Inactive' : 'Active'}
        </Badge>
        {!readOnly && (
          <Button variant="default" onClick={() => setOpen(true)} loading={busy}>
            {label}
          </Button>
        )}
      </Group>
      <Modal opened={open} onClose={() => setOpen(false)} title={USER_DETAIL_MESSAGES.statusTitle} centered>
        {signingMeanings ? (
          <SigningForm
            action="USER_STATUS"
            meanings={signingMeanings}
            labels={{ confirm: 'OK', cancel: 'Cancel' }}
            onSign={async (credentials) => onChange(user.inactive ? 'activate' : 'deactivate', credentials)}
            onClose={() => setOpen(false)}
          >
            {question}
          </SigningForm>
        ) : (
          <>
            <div style={{ marginBottom: 'var(--mantine-spacing-lg)' }}>{question}</div>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpen(false)} data-autofocus>
                Cancel
              </Button>
              <Button
                onClick={() => {
                  setOpen(false);
                  onChange(user.inactive ? 'activate' : 'deactivate');
                }}
              >
                OK
              </Button>
            </Group>
          </>
        )}
      </Modal>
    </Paper>
  );
}

import { Alert, Button, CopyButton, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { SSO_CLIENT_MESSAGES } from '@portal/contract';

/**
 * The client secret, shown once after it was issued (issue 22): the warning that it will not be shown again,
 * the secret in a read-only field (selected on focus) and a copy button. It closes only by its buttons or
 * Escape, never by a stray click outside.
 */
export function SecretModal({
  secret,
  clientId,
  onClose,
}: {
  secret: string | null;
  clientId: string;
  onClose: () => void;
}) {
  return (
    <Modal opened={secret !== null} onClose={onClose} title="Client secret" closeOnClickOutside={false} centered>
      <Stack gap="md">
        <Alert color="yellow" title="Shown only once" role="status">
          {SSO_CLIENT_MESSAGES.secretOnce}
        </Alert>
        <TextInput
          label={`Client secret of ${clientId}`}
          value={secret ?? ''}
          readOnly
          onFocus={(e) => e.currentTarget.select()}
          styles={{ input: { fontFamily: 'monospace' } }}
        />
        <CopyButton value={secret ?? ''}>
          {({ copied, copy }) => (
            <Group justify="flex-end">
              <Text size="sm" role="status" aria-live="polite">
                {copied ? 'Copied to the clipboard.' : ''}
              </Text>
              <Button variant="light" onClick={copy}>
                {copied ? 'Copied' : 'Copy Secret'}
              </Button>
              <Button onClick={onClose}>Done</Button>
            </Group>
          )}
        </CopyButton>
      </Stack>
    </Modal>
  );
}

import { Alert, Button, CopyButton, Group, List, Stack, Text } from '@mantine/core';

/**
 * Recovery codes shown once (issue 37): the person saves them now (copy, or a text file), as the portal keeps
 * only their hashes. Each code signs in once in place of the authenticator app.
 */
export function RecoveryCodesList({ codes }: { codes: string[] }) {
  const text = codes.join('\n');
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${text}\n`], { type: 'text/plain' }));
    const a = Object.assign(document.createElement('a'), { href: url, download: 'portal-recovery-codes.txt' });
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Alert color="yellow" title="Save your recovery codes now" role="status">
      <Stack gap="sm">
        <Text size="sm">
          They are shown only this once. Each code signs you in once if you lose your authenticator app. Keep them
          somewhere safe, apart from your password.
        </Text>
        <List aria-label="Recovery codes" ff="monospace" size="sm" spacing={2} listStyleType="none">
          {codes.map((c) => (
            <List.Item key={c}>{c}</List.Item>
          ))}
        </List>
        <Group gap="sm">
          <CopyButton value={text}>
            {({ copied, copy }) => (
              <Button variant="light" size="xs" onClick={copy}>
                {copied ? 'Copied' : 'Copy codes'}
              </Button>
            )}
          </CopyButton>
          <Button variant="light" size="xs" onClick={download}>
            Download as text
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

import { Center, Loader, Stack, Text } from '@mantine/core';

/** The loading state of a page or of a record a page waits for, announced politely to screen readers. */
export function PageLoader({ label = 'Loading' }: { label?: string }) {
  return (
    <Center py="xl">
      <Stack align="center" gap="xs" role="status" aria-live="polite">
        <Loader />
        <Text size="sm" c="dimmed">
          {label}
        </Text>
      </Stack>
    </Center>
  );
}

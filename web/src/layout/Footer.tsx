import { Anchor, Group, Text } from '@mantine/core';
import { PRIVACY_URL, SITE_TITLE, SUPPORT_EMAIL } from '../lib/config';

/** The footer of both layouts (000 §2 Layouts). */
export function Footer() {
  return (
    <Group component="footer" justify="center" gap="lg" py="md" px="md" wrap="wrap">
      <Text size="xs" c="dimmed">
        © {new Date().getFullYear()} {SITE_TITLE} · Clinical research network
      </Text>
      <Anchor href={PRIVACY_URL} target="_blank" rel="noopener noreferrer" size="xs">
        Privacy and Terms of Use
      </Anchor>
      <Anchor href={`mailto:${SUPPORT_EMAIL}`} size="xs">
        Contact User Support
      </Anchor>
    </Group>
  );
}

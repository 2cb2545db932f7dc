import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { usePageTitle } from './usePageTitle';

/**
 * A page that has nothing to show but a state: not found (an unknown address, an unknown request id) or not
 * authorised (000 §4 Secure page, 'You are not authorized to view this page'). It has an h1 (the page title
 * too, for screen readers and the tab), the text, and a way onward, so nobody is left at a dead end.
 */
export function StatusPage({
  title,
  text,
  onward,
  headingLevel = 1,
  testId,
}: {
  title: string;
  text: string;
  /** Where the person can go from here. */
  onward: { label: string; to: string };
  /** 2 when the frame around it already has the page's h1 (a review screen). */
  headingLevel?: 1 | 2;
  testId?: string;
}) {
  usePageTitle(title);
  return (
    <Stack gap="sm" py="md" data-testid={testId}>
      <Title order={headingLevel}>{title}</Title>
      <Text role={headingLevel === 1 ? undefined : 'status'}>{text}</Text>
      <Anchor component={Link} to={onward.to}>
        {onward.label}
      </Anchor>
    </Stack>
  );
}

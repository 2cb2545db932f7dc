import { Anchor, Badge, Group, Title, type AnchorProps, type MantineSpacing } from '@mantine/core';

/**
 * Pieces of the read-only summary at the top of every review screen (001 §2.4, §2.8, §2.10). `SummaryHeading`:
 * the section's level-2 title (id `<title>-heading`, which the section names itself by) with the current status
 * as a badge (test id `<title>-status`). `WorkflowLink`: 'Open workflow in Temporal UI' in a new tab, nothing
 * when the request has no workflow address.
 */
export function SummaryHeading({
  title,
  status,
  mb,
}: {
  title: 'Request' | 'Registration';
  status: string;
  mb?: MantineSpacing;
}) {
  const key = title.toLowerCase();
  return (
    <Group justify="space-between" mb={mb}>
      <Title order={2} id={`${key}-heading`}>
        {title}
      </Title>
      <Badge variant="light" size="lg" data-testid={`${key}-status`}>
        {status}
      </Badge>
    </Group>
  );
}

export function WorkflowLink({ url, ...anchor }: { url: string | null | undefined } & AnchorProps) {
  if (!url) return null;
  return (
    <Anchor href={url} target="_blank" rel="noopener noreferrer" size="sm" {...anchor}>
      Open workflow in Temporal UI
    </Anchor>
  );
}

import { Anchor, Paper, SimpleGrid, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import type { MyApplication } from '@portal/contract';
import { useMyApplications } from '../lib/sessionQueries';
import { LoadError } from './ErrorAlert';

/** The texts of 'My applications' (issue 22 Launch). */
export const MY_APPLICATIONS_TEXTS = {
  title: 'My applications',
  intro: 'Study systems you hold access to that sign you in with your portal account. Each opens in a new tab.',
  empty: 'No applications with single sign-on yet.',
  loading: 'Loading your applications',
  loadFailed: 'Problem loading your applications.',
} as const;

/** One system's card: its name as a link to its initiate-login URI, opened in a new tab. */
function ApplicationCard({ app }: { app: MyApplication }) {
  return (
    <Paper withBorder p="sm" radius="md" component="li" style={{ listStyle: 'none' }}>
      <Anchor href={app.launchUrl} target="_blank" rel="noopener noreferrer" fw={600} data-testid="my-application">
        {app.systemName} <span aria-hidden>↗</span>
        <VisuallyHidden>(opens in a new tab)</VisuallyHidden>
      </Anchor>
    </Paper>
  );
}

/**
 * 'My applications' (issue 22 Launch): each system the signed-in user holds that has single sign-on, as a card
 * opening the system's initiate-login URI (third-party initiated login) in a new tab; a loading state, an
 * empty state and a load failure with its retry. The dashboard and the Profile's Access tab show it.
 */
export function MyApplications({ headingId }: { headingId: string }) {
  const apps = useMyApplications();
  let body;
  if (apps.isError) {
    body = <LoadError text={MY_APPLICATIONS_TEXTS.loadFailed} onRetry={() => void apps.refetch()} />;
  } else if (apps.isPending) {
    body = (
      <div role="status" aria-live="polite">
        <VisuallyHidden>{MY_APPLICATIONS_TEXTS.loading}</VisuallyHidden>
        <Skeleton height={48} />
      </div>
    );
  } else if (!apps.data.length) {
    body = <Text size="sm">{MY_APPLICATIONS_TEXTS.empty}</Text>;
  } else {
    body = (
      <SimpleGrid component="ul" cols={{ base: 1, sm: 2, md: 3 }} spacing="sm" p={0} m={0} aria-labelledby={headingId}>
        {apps.data.map((app) => (
          <ApplicationCard key={app.systemId} app={app} />
        ))}
      </SimpleGrid>
    );
  }
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} id={headingId}>
          {MY_APPLICATIONS_TEXTS.title}
        </Title>
        <Text size="sm" c="dimmed">
          {MY_APPLICATIONS_TEXTS.intro}
        </Text>
        {body}
      </Stack>
    </Paper>
  );
}

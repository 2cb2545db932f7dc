import { Anchor, Button, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { isResolved, MESSAGES } from '@portal/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '../lib/paths';
import { useHasPermissions, useOwnRequests, useProfile } from '../lib/sessionQueries';
import { usePageTitle } from '../shared/usePageTitle';
import { usePendingCount } from './api/getPendingCount';

function CountCard(props: {
  title: string;
  count: number | undefined;
  loading: boolean;
  failed: string | null;
  description: string;
  linkLabel: string;
  to: string;
  testId: string;
}) {
  return (
    <Card withBorder shadow="xs" padding="lg" radius="md" component="section" aria-label={props.title}>
      <Stack gap="xs">
        <Text fw={600}>{props.title}</Text>
        {props.loading ? (
          <Skeleton height={36} width={60} />
        ) : props.failed ? (
          <Text c="red" size="sm" role="alert">
            {props.failed}
          </Text>
        ) : (
          <Text fz={36} fw={700} lh={1} data-testid={props.testId}>
            {props.count ?? 0}
          </Text>
        )}
        <Text size="sm" c="dimmed">
          {props.description}
        </Text>
        <Anchor component={Link} to={props.to} size="sm">
          {props.linkLabel}
        </Anchor>
      </Stack>
    </Card>
  );
}

/** Dashboard /app/dashboard (000 §2 Routes): the default landing page after sign-in. */
export function DashboardPage() {
  usePageTitle('Dashboard');
  const profile = useProfile();
  const ownRequests = useOwnRequests();
  const canReview = useHasPermissions('READ_USERS');
  const pending = usePendingCount(canReview);

  const openCount = ownRequests.data?.filter((r) => !isResolved(r.requestStatus)).length;
  let welcome: ReactNode = <Skeleton height={32} width={280} />;
  if (profile.data) welcome = `Welcome, ${profile.data.firstName} ${profile.data.lastName}`;

  return (
    <Stack gap="lg">
      <Title order={1}>{welcome}</Title>
      <Text c="dimmed">
        Request access to studies and systems of the network, and follow what happens to your requests.
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        <CountCard
          title="My open access requests"
          count={openCount}
          loading={ownRequests.isPending}
          failed={ownRequests.isError ? MESSAGES.access.loadRequestsFailed : null}
          description="Requests you filed that User Support has not resolved yet."
          linkLabel="View my requests history"
          to={paths.app.profile.href('history')}
          testId="open-requests-count"
        />
        {canReview && (
          <CountCard
            title="Pending user requests"
            count={pending.data}
            loading={pending.isPending}
            failed={pending.isError ? MESSAGES.access.loadUserRequestsFailed : null}
            description="Requests waiting for User Support to review."
            linkLabel="Open the User Requests queue"
            to={paths.app.userRequests.href}
            testId="pending-requests-count"
          />
        )}
      </SimpleGrid>
      <Group>
        <Button component={Link} to={paths.app.profile.href('access')} variant="light">
          Request Access Change
        </Button>
      </Group>
    </Stack>
  );
}

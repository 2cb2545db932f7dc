import { Skeleton, Stack, Text, Title } from '@mantine/core';
import { DASHBOARD_MESSAGES } from '@portal/contract';
import type { ReactNode } from 'react';
import { useProfile } from '../lib/sessionQueries';
import { LoadError } from '../shared/ErrorAlert';
import { MyApplications } from '../shared/MyApplications';
import { usePageTitle } from '../shared/usePageTitle';
import { useDashboardSummary } from './api/getDashboardSummary';
import { MyRequestsSection } from './MyRequestsSection';
import { PermissionCard } from './PermissionCard';
import { QueuesSection } from './QueuesSection';
import { ResourcesSection } from './resources/ResourcesSection';
import { useDashboardArrival } from './useDashboardArrival';
import { VisualizationsSection } from './VisualizationsSection';

/**
 * Dashboard /app/dashboard?skipRefresh=&keepAlert= (000 §2 Routes): the landing page after sign-in and after
 * a password change. What the user's highest permission grants; what their permissions show (000 §6 "portal
 * roles also control dashboard visibility"): their own requests (USER), the open queues (READ_USERS) and the
 * analytics visualizations of a configured Tableau server; and (USER) 'My applications', the systems with single
 * sign-on they hold (issue 22 Launch); and the resources (links, downloads, e-learning) tied to their
 * portal roles (issue 23).
 */
export function DashboardPage() {
  usePageTitle('Dashboard');
  useDashboardArrival();
  const profile = useProfile();
  const summary = useDashboardSummary();

  let welcome: ReactNode = <Skeleton height={32} width={280} />;
  if (profile.data) welcome = `Welcome, ${profile.data.firstName} ${profile.data.lastName}`;
  else if (profile.isError) welcome = 'Welcome';

  return (
    <Stack gap="lg">
      <Title order={1}>{welcome}</Title>
      <Text c="dimmed">
        Request access to studies and systems of the network, and follow what happens to your requests.
      </Text>
      {summary.isError && (
        <LoadError text={DASHBOARD_MESSAGES.loadSummaryFailed} onRetry={() => void summary.refetch()} />
      )}
      {summary.isPending && <Skeleton height={120} />}
      {summary.data && (
        <>
          <PermissionCard summary={summary.data} />
          <ResourcesSection />
          {summary.data.sections.ownRequests && <MyApplications headingId="dashboard-applications-heading" />}
          {summary.data.sections.queues && <QueuesSection />}
          {summary.data.sections.ownRequests && <MyRequestsSection />}
          {summary.data.visualizationIds.length > 0 && <VisualizationsSection ids={summary.data.visualizationIds} />}
        </>
      )}
    </Stack>
  );
}

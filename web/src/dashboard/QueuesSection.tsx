import { Anchor, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { DASHBOARD_MESSAGES, QUEUE_AGE_BUCKETS, QUEUE_AGE_LABELS } from '@portal/contract';
import { lazy, Suspense, useMemo } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '../lib/paths';
import { ClientDataTable } from '../shared/DataTable';
import { LoadError } from '../shared/ErrorAlert';
import { StatusBadge } from '../shared/StatusBadge';
import { DateTimeCell } from '../shared/TableCells';
import { useDashboardQueues } from './api/getDashboardQueues';
import { queueLines, type QueueLine } from './queueRows';

// The chart loads only when a reviewer's dashboard has something to chart.
const QueueChart = lazy(() => import('./QueueChart'));

/**
 * For reviewers (READ_USERS, 000 §6): every open request of the User Requests queue by kind, status and age
 * (time since filing): a stacked bar chart to see where work waits, and the same numbers as a table.
 */
export function QueuesSection() {
  const queues = useDashboardQueues(true);
  const lines = useMemo(() => queueLines(queues.data?.groups ?? []), [queues.data]);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="dashboard-queues-heading">
      <Stack gap="md">
        <Group justify="space-between" align="baseline">
          <Title order={2} id="dashboard-queues-heading">
            Open user requests
          </Title>
          <Anchor component={Link} to={paths.app.userRequests.href} size="sm">
            Open the User Requests queue
          </Anchor>
        </Group>
        {queues.isError ? (
          <LoadError text={DASHBOARD_MESSAGES.loadQueuesFailed} onRetry={() => void queues.refetch()} />
        ) : queues.isPending ? (
          <Skeleton height={160} />
        ) : (
          <>
            <Text>
              <Text component="span" fz={28} fw={700} data-testid="open-queue-total">
                {queues.data.total}
              </Text>{' '}
              {queues.data.total === 1 ? 'request waits' : 'requests wait'} for review.
            </Text>
            {lines.length > 0 && (
              <figure style={{ margin: 0 }} aria-labelledby="dashboard-queues-chart-caption">
                <Text component="figcaption" id="dashboard-queues-chart-caption" size="sm" c="dimmed" mb="xs">
                  Open requests by kind and status, coloured by how long they have waited
                </Text>
                <Suspense fallback={<Skeleton height={160} />}>
                  <QueueChart lines={lines} />
                </Suspense>
              </figure>
            )}
            <ClientDataTable<QueueLine>
              ariaLabel="Open user requests by kind, status and age"
              records={lines}
              idAccessor="key"
              initialSort={{ columnAccessor: 'total', direction: 'desc' }}
              columns={[
                {
                  accessor: 'label',
                  title: 'Request',
                  sortable: true,
                  render: (l) => (
                    <Group gap={6}>
                      <StatusBadge status={l.requestStatus} />
                      <span>{l.label.split(':')[0]}</span>
                    </Group>
                  ),
                },
                ...QUEUE_AGE_BUCKETS.map((b) => ({ accessor: b, title: QUEUE_AGE_LABELS[b], sortable: true })),
                { accessor: 'total', title: 'Total', sortable: true },
                {
                  accessor: 'oldest',
                  title: 'Oldest',
                  sortable: true,
                  render: (l) => <DateTimeCell value={l.oldest} />,
                },
              ]}
            />
          </>
        )}
      </Stack>
    </Paper>
  );
}

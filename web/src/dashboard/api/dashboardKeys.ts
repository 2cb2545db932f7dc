import { requestKeys } from '../../lib/requestKeys';

/**
 * Query keys of the dashboard. The queues and the user's requests start with the queue's root key, so a
 * review save (which invalidates `requestKeys.userRequests.all`) refreshes them too.
 */
export const dashboardKeys = {
  summary: ['dashboard', 'summary'] as const,
  queues: [...requestKeys.userRequests.all, 'dashboardQueues'] as const,
  requests: [...requestKeys.userRequests.all, 'dashboardRequests'] as const,
  visualization: (id: number) => ['dashboard', 'visualization', id] as const,
};

/**
 * Query keys that more than one feature reads: the reviewers' queue (its pages and the dashboard's pending
 * count) and single requests. A review save invalidates `userRequests.all`, which reaches all of them, without
 * the saving feature importing the others.
 */
export const requestKeys = {
  userRequests: {
    all: ['userRequests'] as const,
    page: (params: Record<string, unknown>) => ['userRequests', params] as const,
    pendingCount: ['userRequests', 'pendingCount'] as const,
  },
  accessModRequest: (id: number) => ['accessModRequest', id] as const,
};

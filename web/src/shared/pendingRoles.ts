import { isResolved, type AccessModRequest } from '@portal/contract';
import { useMemo } from 'react';

/**
 * The study roles an outstanding (not yet resolved) access request of the user already covers (000 §5: one
 * outstanding request per study role). `requests` are the user's own access requests, undefined while they
 * load (then no role counts as covered). @returns the role names, the same Set while `requests` is unchanged.
 */
export function usePendingRoleNames(requests: readonly AccessModRequest[] | undefined): Set<string> {
  return useMemo(
    () =>
      new Set(
        (requests ?? [])
          .filter((r) => !isResolved(r.requestStatus))
          .flatMap((r) => r.accessControls.map((a) => a.roleName)),
      ),
    [requests],
  );
}

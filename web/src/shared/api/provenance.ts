/**
 * The provenance call (issue 25 'Why does this person have this access'): GET
 * /rest/secure/user_access/user/{portalUserId}/provenance answers, per active access record of the person, the
 * events of its version chain, oldest first. One query per person: every record's History on a page reads the
 * same cached answer, so a tab of ten records makes one call.
 */
import type { AccessProvenance } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/apiClient';

/** Under the users' root, so a save on the admin Access tab (which invalidates ['users']) refreshes it. */
export const provenanceKeys = {
  user: (portalUserId: number) => ['users', 'provenance', portalUserId] as const,
};

export const provenanceQueryOptions = (portalUserId: number) =>
  queryOptions({
    queryKey: provenanceKeys.user(portalUserId),
    queryFn: ({ signal }) =>
      apiGet<AccessProvenance>(`/rest/secure/user_access/user/${portalUserId}/provenance`, undefined, signal),
    staleTime: 30_000,
  });

/** The person's access provenance; `enabled` false until a History is opened (no call for closed ones). */
export function useAccessProvenance(portalUserId: number, enabled = true) {
  return useQuery({ ...provenanceQueryOptions(portalUserId), enabled });
}

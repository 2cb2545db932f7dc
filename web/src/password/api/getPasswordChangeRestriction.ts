import type { PasswordChangeRestriction } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/apiClient';

const URL = '/rest/secure/user_capabilities/password_change_restriction';

/**
 * GET /rest/secure/user_capabilities/password_change_restriction (docs/api.md; issue 9): whether the signed-in
 * user may change their password now, and inside the minimum-age restriction from when (ISO time, else null).
 */
export const getPasswordChangeRestriction = (signal?: AbortSignal) =>
  apiGet<PasswordChangeRestriction>(URL, undefined, signal);

/** Never cached: the answer changes with the user's own password change. */
export const passwordChangeRestrictionQueryOptions = () =>
  queryOptions({
    queryKey: ['password', 'changeRestriction'],
    queryFn: ({ signal }) => getPasswordChangeRestriction(signal),
    staleTime: 0,
  });

/** The restriction, fetched once 'ever' says the portal manages the password (`enabled`). */
export function usePasswordChangeRestriction(enabled = true) {
  return useQuery({ ...passwordChangeRestrictionQueryOptions(), enabled });
}

import {
  type CreateProfileChangeBody,
  isResolved,
  PROFILE_CHANGE_BASE,
  type ProfileChangeRequest,
} from '@portal/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/apiClient';
import { readEveryPage } from '../../../lib/everyPage';
import type { MutationConfig } from '../../../lib/reactQuery';
import { sessionKeys } from '../../../lib/sessionQueries';
import { historyKeys } from '../../../shared/history/historyQueries';

/** Under the session's root: cleared at sign-out with everything else that is one user's. */
export const ownProfileChangeKeys = { all: [...sessionKeys.all, 'profileChange', 'own'] as const };

/** GET /rest/secure/ldap_user_profile_mod_request/user (001 §7): the signed-in user's requests, newest first, every page. */
export const getOwnProfileChangeRequests = (signal?: AbortSignal) =>
  readEveryPage<ProfileChangeRequest>(`${PROFILE_CHANGE_BASE}/user`, {}, signal);

export const ownProfileChangeQueryOptions = () =>
  queryOptions({ queryKey: ownProfileChangeKeys.all, queryFn: ({ signal }) => getOwnProfileChangeRequests(signal) });

/** The user's requests and the outstanding (unresolved) one, if any (000 §5: one at a time). */
export function useOutstandingProfileChange() {
  const query = useQuery(ownProfileChangeQueryOptions());
  const outstanding: ProfileChangeRequest | undefined = query.data?.find((r) => !isResolved(r.requestStatus));
  return { ...query, outstanding };
}

/**
 * POST /rest/secure/ldap_user_profile_mod_request (001 §7): requests a new name and/or email. Resolves with the
 * answer (200 filed, 304 nothing to change); rejects with the ApiError (422 fieldErrors or REQUEST_IN_PROGRESS).
 */
export const submitProfileChange = (body: CreateProfileChangeBody) =>
  apiPost<ProfileChangeRequest>(PROFILE_CHANGE_BASE, body);

/**
 * The submit mutation: a filed request refreshes the user's list (the banner and the disabled form follow it) and
 * their Requests History.
 */
export function useSubmitProfileChange({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof submitProfileChange> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: submitProfileChange,
    onSuccess: (...args) => {
      if (args[0].status !== 304) {
        void queryClient.invalidateQueries({ queryKey: ownProfileChangeKeys.all });
        // The Requests History tab lists the new request too.
        void queryClient.invalidateQueries({ queryKey: historyKeys.self('profileChange') });
      }
      return onSuccess?.(...args);
    },
  });
}

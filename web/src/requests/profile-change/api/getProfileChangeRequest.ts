import { PROFILE_CHANGE_BASE, type ProfileChangeRequest } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/apiClient';

export const profileChangeKeys = {
  request: (id: number) => ['profileChangeRequest', id] as const,
};

/** GET /rest/secure/ldap_user_profile_mod_request/{id} (001 §7): one profile-change request. */
export const getProfileChangeRequest = (id: number, signal?: AbortSignal) =>
  apiGet<ProfileChangeRequest>(`${PROFILE_CHANGE_BASE}/${id}`, undefined, signal);

export const profileChangeRequestQueryOptions = (id: number) =>
  queryOptions({
    queryKey: profileChangeKeys.request(id),
    queryFn: ({ signal }) => getProfileChangeRequest(id, signal),
  });

/** Nothing is loaded for an id that cannot exist. */
export function useProfileChangeRequest(id: number) {
  return useQuery({ ...profileChangeRequestQueryOptions(id), enabled: Number.isInteger(id) && id > 0 });
}

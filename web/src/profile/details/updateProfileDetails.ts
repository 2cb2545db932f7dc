import type { Profile, ProfileDetailsBody } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPut, type ApiResponse } from '../../lib/apiClient';
import type { MutationConfig } from '../../lib/reactQuery';
import { sessionKeys } from '../../lib/sessionQueries';

/**
 * PUT /rest/secure/user_profile_mod (000 §7): the profile as body (only its Details fields are saved);
 * 200 the saved profile, 304 no changes, 422 field errors.
 */
export const updateProfileDetails = (
  body: ProfileDetailsBody & Omit<Partial<Profile>, 'country' | 'state'>,
): Promise<ApiResponse<Profile>> => apiPut<Profile>('/rest/secure/user_profile_mod', body);

/** The save; a saved profile replaces the session's copy (the banner, the menu and the tabs read it). */
export function useUpdateProfileDetails({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof updateProfileDetails> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: updateProfileDetails,
    onSuccess: (...args) => {
      const saved = args[0];
      if (saved.status !== 304 && saved.data) queryClient.setQueryData(sessionKeys.profile, saved.data);
      return onSuccess?.(...args);
    },
  });
}

import { AUTH_CONSTANTS, PASSWORD_HASH_PATTERN } from '@portal/contract';
import { queryOptions, useMutation } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../lib/apiClient';
import type { MutationConfig } from '../../lib/reactQuery';

/** The two link kinds of 000 §4 (set initial password, reset password): the URL segment of both calls. */
export type SetPasswordMode = 'set_initial_password' | 'reset_password';

import { sleep } from '../../lib/sleep';

/**
 * GET /rest/public/{mode}/{hash}: whether the link is still valid; a hash of the wrong shape is invalid without
 * a call. The answer comes no sooner than the spec's delay (000 §9), so the form does not flash.
 */
export const passwordLinkQueryOptions = (mode: SetPasswordMode, hash: string) =>
  queryOptions({
    queryKey: ['password', 'link', mode, hash],
    queryFn: async ({ signal }) => {
      const [ok] = await Promise.all([
        PASSWORD_HASH_PATTERN.test(hash)
          ? apiGet<boolean>(`/rest/public/${mode}/${encodeURIComponent(hash)}`, undefined, signal)
          : Promise.resolve(false),
        sleep(AUTH_CONSTANTS.resetFormDelayMs),
      ]);
      return ok === true;
    },
    staleTime: Infinity,
    retry: false,
  });

/** POST /rest/public/{mode} with the link's hash and the new password. */
export const setPassword = ({ mode, hash, password }: { mode: SetPasswordMode; hash: string; password: string }) =>
  apiPost(`/rest/public/${mode}`, { hash, password });

/** The set / reset mutation; nothing to invalidate (no session). */
export function useSetPassword({ mutationConfig }: { mutationConfig?: MutationConfig<typeof setPassword> } = {}) {
  return useMutation({ ...mutationConfig, mutationFn: setPassword });
}

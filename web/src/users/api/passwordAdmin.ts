import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../lib/apiClient';
import type { MutationConfig } from '../../lib/reactQuery';
import { userKeys } from './userKeys';

/**
 * The user-management password calls of the user detail's password section (000 §7; permissions per
 * docs/decisions.md): 'ever' and hasSetInitialPassword (READ_USERS), the restriction and its clearing (ADMIN,
 * by the directory uuid), the resend of the initial mail (WRITE_USERS).
 */
const URLS = {
  ever: (id: number) => `/rest/secure/user_management/can_change_password_ever/${id}`,
  initialSet: (id: number) => `/rest/secure/user_management/hasSetInitialPassword/${id}`,
  restricted: (uuid: string) => `/rest/secure/admin/user_management/isUserCurrentlyRestrictedByAllowChangeTime/${uuid}`,
  restriction: (uuid: string) => `/rest/secure/admin/user_management/passwordChangeRestriction/${uuid}`,
  clear: (uuid: string) => `/rest/secure/admin/user_management/clearUsersPasswordAllowChangeTime/${uuid}`,
  resend: (id: number) => `/rest/secure/set_initial_password/resend/${id}`,
} as const;

export const passwordKeys = {
  all: (id: number) => [...userKeys.detail(id), 'password'] as const,
  ever: (id: number) => [...userKeys.detail(id), 'password', 'ever'] as const,
  initialSet: (id: number) => [...userKeys.detail(id), 'password', 'initialSet'] as const,
  restricted: (id: number) => [...userKeys.detail(id), 'password', 'restricted'] as const,
  restriction: (id: number) => [...userKeys.detail(id), 'password', 'restriction'] as const,
};

/** GET can_change_password_ever/{id}: whether the portal manages the user's password. */
export const getCanChangePasswordEver = (id: number, signal?: AbortSignal) =>
  apiGet<boolean>(URLS.ever(id), undefined, signal);

/** GET hasSetInitialPassword/{id}. */
export const getHasSetInitialPassword = (id: number, signal?: AbortSignal) =>
  apiGet<boolean>(URLS.initialSet(id), undefined, signal);

export const useCanChangePasswordEver = (id: number) =>
  useQuery({ queryKey: passwordKeys.ever(id), queryFn: ({ signal }) => getCanChangePasswordEver(id, signal) });

export const useHasSetInitialPassword = (id: number) =>
  useQuery({ queryKey: passwordKeys.initialSet(id), queryFn: ({ signal }) => getHasSetInitialPassword(id, signal) });

/** GET isUserCurrentlyRestrictedByAllowChangeTime/{uuid} (ADMIN): the restriction; its date when restricted. */
export function useChangeRestriction(id: number, uuid: string | null, enabled: boolean) {
  const restricted = useQuery({
    queryKey: passwordKeys.restricted(id),
    queryFn: ({ signal }) => apiGet<boolean>(URLS.restricted(uuid!), undefined, signal),
    enabled: enabled && !!uuid,
  });
  const until = useQuery({
    queryKey: passwordKeys.restriction(id),
    queryFn: ({ signal }) =>
      apiGet<{ restricted: boolean; changeAllowedFrom: string | null }>(URLS.restriction(uuid!), undefined, signal),
    enabled: enabled && !!uuid && restricted.data === true,
  });
  return { restricted, until };
}

/** POST clearUsersPasswordAllowChangeTime/{uuid} (ADMIN); afterwards the section reloads. */
export const clearChangeRestriction = (uuid: string) => apiPost<object>(URLS.clear(uuid));

export function useClearChangeRestriction(
  id: number,
  { mutationConfig }: { mutationConfig?: MutationConfig<typeof clearChangeRestriction> } = {},
) {
  const queryClient = useQueryClient();
  const { onSettled, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: clearChangeRestriction,
    onSettled: (...args) => {
      void queryClient.invalidateQueries({ queryKey: passwordKeys.all(id) });
      return onSettled?.(...args);
    },
  });
}

/** POST set_initial_password/resend/{id} (WRITE_USERS): 409 with the spec's text when not possible. */
export const resendInitialEmail = (id: number) => apiPost<{ message: string }>(URLS.resend(id));

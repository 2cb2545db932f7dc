import type { PasswordRules } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../app/api';

/** GET /rest/public/password_validation/rules (000 §7): the server's rules, listed beside the forms. */
export function usePasswordRules() {
  return useQuery({
    queryKey: ['password', 'rules'],
    queryFn: ({ signal }) => apiGet<PasswordRules>('/rest/public/password_validation/rules', undefined, signal),
    staleTime: 5 * 60_000,
  });
}

/** GET /rest/secure/user_capabilities/can_change_password_{ever|now} (000 §3 Permissions, §7). */
export function useCanChangePassword(which: 'ever' | 'now', enabled = true) {
  return useQuery({
    queryKey: ['session', 'canChangePassword', which],
    queryFn: ({ signal }) =>
      apiGet<boolean>(`/rest/secure/user_capabilities/can_change_password_${which}`, undefined, signal),
    staleTime: which === 'ever' ? 5 * 60_000 : 0,
    enabled,
  });
}

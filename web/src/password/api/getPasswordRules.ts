import type { PasswordRules } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/apiClient';

/** GET /rest/public/password_validation/rules (000 §7): the server's rules, listed beside the forms. */
export const getPasswordRules = (signal?: AbortSignal) =>
  apiGet<PasswordRules>('/rest/public/password_validation/rules', undefined, signal);

export const passwordRulesQueryOptions = () =>
  queryOptions({
    queryKey: ['password', 'rules'],
    queryFn: ({ signal }) => getPasswordRules(signal),
    staleTime: 5 * 60_000,
  });

/** The rules, cached for five minutes. */
export function usePasswordRules() {
  return useQuery(passwordRulesQueryOptions());
}

import { type AccountTypes, REGISTRATION_MESSAGES } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/apiClient';

/** GET /rest/secure/user_management/account_types (001 §3 Account types, §7): the default and the assignable. */
export const getAccountTypes = (signal?: AbortSignal) =>
  apiGet<AccountTypes>('/rest/secure/user_management/account_types', undefined, signal);

export const accountTypesQueryOptions = () =>
  queryOptions({
    queryKey: ['accountTypes'] as const,
    queryFn: ({ signal }) =>
      getAccountTypes(signal).catch((err: unknown) => {
        console.error(REGISTRATION_MESSAGES.loadAccountTypesFailed, err);
        throw err;
      }),
    staleTime: 10 * 60_000,
  });

/** The account types; 001 §8 says a failed load is only logged, so the screen falls back to the contract's list. */
export function useAccountTypes() {
  return useQuery(accountTypesQueryOptions());
}

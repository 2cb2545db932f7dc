import type { LdapMatch } from '@portal/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../../lib/apiClient';

/**
 * GET /rest/secure/user_management/ldap/usersForPersonName/{lastName}/{firstName}/ (001 §7): directory entries
 * with that name.
 */
export const getLdapUsersForPersonName = (lastName: string, firstName: string, signal?: AbortSignal) =>
  apiGet<LdapMatch[]>(
    `/rest/secure/user_management/ldap/usersForPersonName/${encodeURIComponent(lastName)}/${encodeURIComponent(firstName)}/`,
    undefined,
    signal,
  );

export const ldapUsersForPersonNameQueryOptions = (lastName: string, firstName: string) =>
  queryOptions({
    queryKey: ['ldapMatches', 'name', lastName, firstName] as const,
    queryFn: ({ signal }) => getLdapUsersForPersonName(lastName, firstName, signal),
    enabled: lastName.trim() !== '' && firstName.trim() !== '',
  });

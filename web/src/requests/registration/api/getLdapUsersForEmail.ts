import type { LdapMatch } from '@portal/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../../lib/apiClient';

/** GET /rest/secure/user_management/ldap/usersForEmail/{email}/ (001 §7): directory entries with that email. */
export const getLdapUsersForEmail = (email: string, signal?: AbortSignal) =>
  apiGet<LdapMatch[]>(
    `/rest/secure/user_management/ldap/usersForEmail/${encodeURIComponent(email)}/`,
    undefined,
    signal,
  );

export const ldapUsersForEmailQueryOptions = (email: string) =>
  queryOptions({
    queryKey: ['ldapMatches', 'email', email] as const,
    queryFn: ({ signal }) => getLdapUsersForEmail(email, signal),
    enabled: email.trim() !== '',
  });

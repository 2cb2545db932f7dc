import type { LdapMatch } from '@portal/contract';
import { useQueries } from '@tanstack/react-query';
import { ldapUsersForEmailQueryOptions } from './getLdapUsersForEmail';
import { ldapUsersForPersonNameQueryOptions } from './getLdapUsersForPersonName';

export interface LdapSearch {
  email: string;
  firstName: string;
  lastName: string;
}

/**
 * The directory matches of a registration (001 §2.4 LDAP Details, §7): the search by email and the search by
 * name, merged and de-duplicated by uuid (email matches first). `failed` when either search failed.
 */
export function useLdapMatches(search: LdapSearch) {
  const [byEmail, byName] = useQueries({
    queries: [
      ldapUsersForEmailQueryOptions(search.email.trim()),
      ldapUsersForPersonNameQueryOptions(search.lastName.trim(), search.firstName.trim()),
    ],
  });
  const seen = new Set<string>();
  const matches: LdapMatch[] = [];
  for (const match of [...(byEmail.data ?? []), ...(byName.data ?? [])]) {
    if (seen.has(match.uuid)) continue;
    seen.add(match.uuid);
    matches.push(match);
  }
  return {
    matches,
    loading: byEmail.isFetching || byName.isFetching,
    failed: !!byEmail.error || !!byName.error,
    retry: () => {
      void byEmail.refetch();
      void byName.refetch();
    },
  };
}

import { useQuery } from '@tanstack/react-query';
import type { UserListRow } from '@portal/contract';
import { readEveryPage } from '../../../lib/everyPage';

/**
 * The users of the picked AO, LAO or 'unaffiliated users' (001 §2.7 step 2), read through GET
 * /rest/secure/user_management/users with its site filter (docs/api.md), active users only, by last name.
 */
export type SiteChoice = { kind: 'ao' | 'lao'; code: string } | { kind: 'unaffiliated' };

const URL = '/rest/secure/user_management/users';

/** Every active user of `choice`, by last name: one load-all call (000 §9), which the API streams. */
export async function loadUsersAt(choice: SiteChoice, signal?: AbortSignal): Promise<UserListRow[]> {
  const filter: Record<string, string> =
    choice.kind === 'ao'
      ? { siteCode: choice.code }
      : choice.kind === 'lao'
        ? { laoCode: choice.code }
        : { unaffiliated: 'true' };
  return readEveryPage<UserListRow>(URL, { ...filter, sort: 'person.lastName,asc' }, signal);
}

export const choiceKey = (c: SiteChoice | null): string =>
  c === null ? '' : c.kind === 'unaffiliated' ? 'unaffiliated' : `${c.kind}:${c.code}`;

export function useUsersAt(choice: SiteChoice | null) {
  return useQuery({
    queryKey: ['proxyUsers', choiceKey(choice)],
    queryFn: ({ signal }) => loadUsersAt(choice!, signal),
    enabled: choice !== null,
  });
}

import { useQuery } from '@tanstack/react-query';
import type { Page, UserListRow } from '@portal/contract';
import { apiGet } from '../../../lib/apiClient';

/**
 * The users of the picked AO, LAO or 'unaffiliated users' (001 §2.7 step 2), read through GET
 * /rest/secure/user_management/users with its site filter (docs/api.md), every page of 200 in turn, active
 * users only, by last name.
 */
export type SiteChoice = { kind: 'ao' | 'lao'; code: string } | { kind: 'unaffiliated' };

const URL = '/rest/secure/user_management/users';
const PAGE_SIZE = 200;
/** A safety stop: a site of more users than this is cut (the table says how many it shows). */
const MAX_PAGES = 50;

export async function loadUsersAt(choice: SiteChoice, signal?: AbortSignal): Promise<UserListRow[]> {
  const filter: Record<string, string> =
    choice.kind === 'ao'
      ? { siteCode: choice.code }
      : choice.kind === 'lao'
        ? { laoCode: choice.code }
        : { unaffiliated: 'true' };
  const rows: UserListRow[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const answer = await apiGet<Page<UserListRow>>(
      URL,
      { ...filter, page: String(page), size: String(PAGE_SIZE), sort: 'person.lastName,asc' },
      signal,
    );
    rows.push(...answer.content);
    if (answer.last || answer.content.length === 0) break;
  }
  return rows;
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

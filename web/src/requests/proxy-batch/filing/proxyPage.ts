import type { Profile, UserListRow } from '@portal/contract';
import { PROXY_MESSAGES } from '@portal/contract';
import type { SiteOptions } from '../../../shared/referenceData';
import type { SiteChoice } from '../api/proxyUsers';

/**
 * The proxy page's pure rules (001 §2.7, §5, §6): what the proxy may pick (their own LAOs and AOs, or with
 * forAllUsers every one and 'unaffiliated users'), and the user list without the signed-in user and without
 * duplicate emails.
 */

export interface ChoiceGroup {
  group: string;
  items: { value: string; label: string }[];
}

export const UNAFFILIATED = 'unaffiliated';

/** Select groups of the site picker, values 'lao:<code>', 'ao:<code>' and 'unaffiliated'. */
export function siteChoiceGroups(profile: Profile, sites: SiteOptions): ChoiceGroup[] {
  const forAll = profile.canSubmitProxyAccessChangeRequests.forAllUsers;
  const ownLaos = new Set(profile.userAccesses.flatMap((a) => a.laoIds));
  const ownAos = new Set(profile.userAccesses.flatMap((a) => a.siteCodes));
  const laos = sites.laos.filter((o) => forAll || ownLaos.has(o.value));
  const aos = sites.aos.filter((o) => forAll || ownAos.has(o.value));
  const groups: ChoiceGroup[] = [
    { group: 'LAOs', items: laos.map((o) => ({ value: `lao:${o.value}`, label: o.label })) },
    { group: 'AOs', items: aos.map((o) => ({ value: `ao:${o.value}`, label: o.label })) },
  ];
  if (forAll) groups.push({ group: 'Other', items: [{ value: UNAFFILIATED, label: PROXY_MESSAGES.unaffiliated }] });
  return groups.filter((g) => g.items.length > 0);
}

export function parseChoice(value: string | null): SiteChoice | null {
  if (!value) return null;
  if (value === UNAFFILIATED) return { kind: 'unaffiliated' };
  const [kind, ...rest] = value.split(':');
  return kind === 'ao' || kind === 'lao' ? { kind, code: rest.join(':') } : null;
}

/** 001 §5: the signed-in user and duplicate emails (case-insensitive, the first kept) are dropped. */
export function selectableUsers(rows: readonly UserListRow[], signedInUserId: number): UserListRow[] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    const email = r.email.toLowerCase();
    if (r.id === signedInUserId || seen.has(email)) return false;
    seen.add(email);
    return true;
  });
}

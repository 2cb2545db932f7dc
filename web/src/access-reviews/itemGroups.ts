import type { AccessReviewItem } from '@portal/contract';

/** One person's items on a page of review items: the page lists them by person, consecutively. */
export interface PersonGroup {
  portalUserId: number;
  name: string;
  username: string;
  email: string;
  items: AccessReviewItem[];
}

/**
 * Groups a page of items by person (issue 25: 'open items grouped by person'), keeping the server's order; a
 * person split across two pages gets a header on each.
 */
export function groupByPerson(items: readonly AccessReviewItem[]): PersonGroup[] {
  const groups: PersonGroup[] = [];
  for (const item of items) {
    const last = groups[groups.length - 1];
    if (last?.portalUserId === item.portalUserId) last.items.push(item);
    else
      groups.push({
        portalUserId: item.portalUserId,
        name: `${item.firstName} ${item.lastName}`.trim(),
        username: item.username,
        email: item.email,
        items: [item],
      });
  }
  return groups;
}

/** How an item is named in results and labels: '<study role> of <person>'. */
export const itemName = (item: Pick<AccessReviewItem, 'roleName' | 'firstName' | 'lastName'>) =>
  `${item.roleName} of ${item.firstName} ${item.lastName}`.trim();

import type { AccessReviewItem, MyAccessReviews, Page } from '@portal/contract';

/**
 * Fixtures of the access review screens' tests (issue 25): an open campaign of the caller's and review items
 * built from a few fields, answered as the API's page.
 */
export const openCampaign: MyAccessReviews['campaigns'][number] = {
  id: 7,
  name: 'Spring review',
  deadline: '2026-12-10T17:00:00.000Z',
  total: 4,
  undecided: 3,
};

export function reviewItem(over: Partial<AccessReviewItem> & Pick<AccessReviewItem, 'id'>): AccessReviewItem {
  return {
    campaignId: 7,
    campaignName: 'Spring review',
    deadline: openCampaign.deadline,
    accessId: 100 + over.id,
    portalUserId: 1,
    username: 'jdoe',
    firstName: 'Jane',
    lastName: 'Doe',
    email: 'jane.doe@example.org',
    roleName: 'Investigator',
    siteCodes: [],
    laoIds: ['MA036'],
    studyNames: ['STUDY-1'],
    systemNames: ['Study Data Capture'],
    accessEndDate: null,
    pools: ['MA036'],
    decision: null,
    comment: null,
    decidedByUsername: null,
    decidedAt: null,
    changed: false,
    outcome: null,
    ...over,
  };
}

/** A page as the API answers it (GET .../access_review/items, the ADMIN lists), the first of `totalElements`. */
export function itemsPage<T = AccessReviewItem>(content: T[], totalElements = content.length): Page<T> {
  return {
    content,
    totalElements,
    numberOfElements: content.length,
    size: 50,
    number: 1,
    totalPages: Math.max(1, Math.ceil(totalElements / 50)),
    first: true,
    last: true,
    sort: 'lastName,asc',
  };
}

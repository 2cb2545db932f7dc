/**
 * What the Access Reviews page's tests share: two people's items of an open campaign and the page rendered on mocked HTTP.
 */
import { mockApi, reply, type Handler } from '../testing/mockApi';
import { renderRoute } from '../testing/render';
import { AccessReviewsPage } from './AccessReviewsPage';
import { itemsPage, openCampaign, reviewItem } from './reviewFixtures';

export const MINE = 'GET /rest/secure/access_review/mine';
export const ITEMS = 'GET /rest/secure/access_review/items';
export const DECIDE = 'POST /rest/secure/access_review/decisions';

export const jane = [
  reviewItem({ id: 1 }),
  reviewItem({ id: 2, roleName: 'Data Manager', changed: true, decision: 'KEEP', decidedByUsername: 'laostaff' }),
];
export const sam = reviewItem({
  id: 3,
  portalUserId: 2,
  username: 'ssmith',
  firstName: 'Sam',
  lastName: 'Smith',
  email: 'sam.smith@example.org',
});

export function renderPage(handlers: Record<string, Handler>, url = '/app/access-reviews') {
  const api = mockApi({
    [MINE]: () => reply(200, { reviewer: true, campaigns: [openCampaign] }),
    [ITEMS]: () => reply(200, itemsPage([...jane, sam])),
    'GET /rest/secure/user_access/user/1/provenance': () =>
      reply(200, {
        records: [
          {
            accessId: 101,
            roleName: 'Investigator',
            events: [
              {
                at: '2026-01-05T10:00:00.000Z',
                label: 'Granted',
                source: 'REQUEST',
                actorUsername: 'reviewer',
                requestId: 55,
                batchId: null,
                campaignId: null,
                campaignName: null,
                workflowId: null,
                comment: null,
              },
            ],
          },
        ],
      }),
    ...handlers,
  });
  return { ...renderRoute({ path: '/app/access-reviews', url, element: <AccessReviewsPage /> }), api };
}

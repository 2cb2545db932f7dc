/**
 * Signing access review decisions (docs/decisions.md "Electronic signatures"): with signatures on, a bulk
 * Keep is signed once, the ticket asked for with exactly the body sent and carried in its header; an item the
 * signed decision could not apply shows 'Signed, not applied'.
 */
import { ACCESS_REVIEW_MESSAGES, SIGNATURE_HEADER, SIGNATURE_TEXTS, SIGNATURE_TICKET_PATH } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, reply, type Handler } from '../testing/mockApi';
import { renderRoute } from '../testing/render';
import { AccessReviewsPage } from './AccessReviewsPage';
import { itemsPage, openCampaign, reviewItem } from './reviewFixtures';

const MINE = 'GET /rest/secure/access_review/mine';
const ITEMS = 'GET /rest/secure/access_review/items';
const DECIDE = 'POST /rest/secure/access_review/decisions';

const jane = [
  reviewItem({ id: 1 }),
  reviewItem({ id: 2, roleName: 'Data Manager', changed: true, decision: 'KEEP', decidedByUsername: 'laostaff' }),
];
const sam = reviewItem({
  id: 3,
  portalUserId: 2,
  username: 'ssmith',
  firstName: 'Sam',
  lastName: 'Smith',
  email: 'sam.smith@example.org',
});

function renderPage(handlers: Record<string, Handler>, url = '/app/access-reviews') {
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

const TICKET = `POST ${SIGNATURE_TICKET_PATH}`;
const SETTINGS = 'GET /rest/secure/portal_settings';

describe('Access Reviews, signed', () => {
  it('a bulk Keep is signed once; an item not applied shows "Signed, not applied"', async () => {
    const { user, api } = renderPage({
      [SETTINGS]: () =>
        reply(200, { proxyCommentMarkers: ['[Proxy request]'], signatures: { enabled: true, meanings: {} } }),
      [TICKET]: () => reply(200, { ticket: 'ticket-r', expiresAt: '2026-12-03T12:00:00Z' }),
      [DECIDE]: () =>
        reply(200, {
          decided: 2,
          refused: 1,
          results: [
            { itemId: 1, ok: true, message: null },
            { itemId: 2, ok: true, message: null },
            { itemId: 3, ok: false, message: ACCESS_REVIEW_MESSAGES.notYourItem },
          ],
        }),
    });
    await screen.findByRole('table', { name: 'Review items' });
    await waitFor(() => expect(api.callsTo(SETTINGS)).toHaveLength(1));
    await user.click(screen.getByRole('checkbox', { name: 'Select all items on this page' }));
    await user.click(screen.getByRole('button', { name: 'Keep' }));

    const dialog = await screen.findByRole('dialog', { name: SIGNATURE_TEXTS.legend });
    expect(api.callsTo(DECIDE)).toHaveLength(0);
    expect(within(dialog).getByRole('combobox', { name: /Meaning/ })).toHaveValue('Reviewed');
    await user.type(within(dialog).getByRole('textbox', { name: /Username/ }), 'rev');
    await user.type(within(dialog).getByLabelText(/Password/), 'secret{Enter}');

    expect(await screen.findByText(`${ACCESS_REVIEW_MESSAGES.decided(2)}, 1 refused.`)).toBeVisible();
    expect(api.callsTo(TICKET)).toHaveLength(1);
    const [decide] = api.callsTo(DECIDE);
    expect(decide!.body).toEqual({ campaignId: 7, decision: 'KEEP', itemIds: [1, 2, 3] });
    expect(decide!.headers[SIGNATURE_HEADER]).toBe('ticket-r');
    expect(api.callsTo(TICKET)[0]!.body).toMatchObject({
      action: 'ACCESS_REVIEW_DECISION',
      decision: { method: 'POST', path: '/rest/secure/access_review/decisions', body: decide!.body },
    });
    const results = screen.getByRole('list', { name: 'Per-item results' });
    expect(within(results).getAllByRole('listitem')[2]).toHaveTextContent(
      `Investigator of Sam Smith ${SIGNATURE_TEXTS.notApplied}`,
    );
  });
});

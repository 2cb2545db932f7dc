/**
 * Signing access review decisions (docs/decisions.md "Electronic signatures"): with signatures on, a bulk
 * Keep is signed once, the ticket asked for with exactly the body sent and carried in its header; an item the
 * signed decision could not apply shows 'Signed, not applied'.
 */
import { ACCESS_REVIEW_MESSAGES, SIGNATURE_HEADER, SIGNATURE_TEXTS, SIGNATURE_TICKET_PATH } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { reply } from '../testing/mockApi';

import { DECIDE, renderPage } from './reviewPageFixtures';

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

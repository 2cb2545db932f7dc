/**
 * Access Reviews (issue 25 "Access review campaigns") on mocked HTTP: nothing to review; items grouped by
 * person with the progress, the changed mark and a history; Keep for a selected page with per-item results
 * (a refused item with its reason); Remove by filter through the comment dialog (required, counted, the
 * server's 422 beside it); a decision refused because the campaign closed; a closed campaign read-only.
 */
import { ACCESS_REVIEW_MESSAGES } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { reply, sequence } from '../testing/mockApi';
import { itemsPage, reviewItem } from './reviewFixtures';

import { DECIDE, ITEMS, MINE, renderPage, sam } from './reviewPageFixtures';

describe('Access Reviews', () => {
  it('says there is nothing to review without an open campaign', async () => {
    renderPage({ [MINE]: () => reply(200, { reviewer: false, campaigns: [] }) });
    expect(await screen.findByRole('heading', { name: 'Nothing to review' })).toBeVisible();
    expect(screen.getByText('You are not a reviewer of any open access review campaign.')).toBeVisible();
  });

  it('says when every item of an open campaign is decided', async () => {
    renderPage({ [ITEMS]: () => reply(200, itemsPage([])) });
    expect(await screen.findByRole('heading', { name: 'Nothing to review' })).toBeVisible();
    expect(screen.getByText(/Every item of yours in this campaign is decided/)).toBeVisible();
    expect(screen.getByRole('radio', { name: 'All' })).toBeVisible();
  });

  it('groups the items by person with progress, the changed mark and the history of an item', async () => {
    const { user, api } = renderPage({});
    const table = await screen.findByRole('table', { name: 'Review items' });
    expect(screen.getByText('1 of 4 items decided')).toBeVisible();
    expect(screen.getByRole('progressbar', { name: 'Decided items' })).toHaveAttribute('aria-valuenow', '25');
    const people = within(table).getAllByRole('rowheader');
    expect(people.map((p) => p.textContent)).toEqual([
      'Jane Doe(jdoe)jane.doe@example.org',
      'Sam Smith(ssmith)sam.smith@example.org',
    ]);
    expect(within(table).getByText('Changed since the review started')).toBeVisible();
    expect(within(table).getByText(ACCESS_REVIEW_MESSAGES.changedSinceSnapshot)).toBeVisible();
    expect(api.callsTo(ITEMS)[0]!.search).toBe('?campaignId=7&page=1&size=50&state=UNDECIDED');

    const history = within(table).getByRole('button', { name: 'History of Investigator of Jane Doe' });
    expect(history).toHaveAttribute('aria-expanded', 'false');
    await user.click(history);
    expect(history).toHaveAttribute('aria-expanded', 'true');
    expect(await within(table).findByText(/Granted/)).toBeVisible();
  });

  it('keeps the selected page and shows the result of each item', async () => {
    const { user, api } = renderPage({
      [DECIDE]: () =>
        reply(200, {
          decided: 2,
          refused: 1,
          results: [
            { itemId: 1, ok: true, message: null },
            { itemId: 2, ok: true, message: ACCESS_REVIEW_MESSAGES.changedSinceSnapshot },
            { itemId: 3, ok: false, message: ACCESS_REVIEW_MESSAGES.notYourItem },
          ],
        }),
    });
    await screen.findByRole('table', { name: 'Review items' });
    expect(screen.getByRole('button', { name: 'Keep' })).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Select all items on this page' }));
    expect(screen.getByText('3 selected')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Keep' }));
    expect(await screen.findByText(`${ACCESS_REVIEW_MESSAGES.decided(2)}, 1 refused.`)).toBeVisible();
    expect(api.callsTo(DECIDE)[0]!.body).toEqual({ campaignId: 7, decision: 'KEEP', itemIds: [1, 2, 3] });
    const results = screen.getByRole('list', { name: 'Per-item results' });
    const lines = within(results)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(lines).toEqual([
      'Investigator of Jane Doe Saved',
      `Data Manager of Jane Doe Saved ${ACCESS_REVIEW_MESSAGES.changedSinceSnapshot}`,
      `Investigator of Sam Smith Refused ${ACCESS_REVIEW_MESSAGES.notYourItem}`,
    ]);
    // The items and the counts are read again; the selection is gone.
    expect(api.callsTo(ITEMS).length).toBeGreaterThan(1);
    expect(await screen.findByText('0 selected')).toBeVisible();
  });

  it('removes every item matching the filter after a required comment', async () => {
    const { user, api } = renderPage({
      [ITEMS]: () => reply(200, itemsPage([sam], 120)),
      [DECIDE]: sequence(
        () => reply(422, { fieldErrors: { comment: ['size'] }, globalErrors: [] }),
        () => reply(200, { decided: 120, refused: 0, results: [{ itemId: 3, ok: true, message: null }] }),
      ),
    });
    await screen.findByRole('table', { name: 'Review items' });
    await user.type(screen.getByLabelText('Filter items'), 'smith');
    // The filter reaches the server once typing pauses (500 ms).
    await waitFor(() => expect(api.callsTo(ITEMS).at(-1)!.search).toContain('filter=smith'));
    await user.click(screen.getByRole('checkbox', { name: 'Apply to every item matching the filter (120)' }));
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove access' });
    expect(within(dialog).getByText(/120 items will lose access when the campaign closes/)).toBeVisible();
    const confirm = within(dialog).getByRole('button', { name: 'Remove access for 120 items' });
    await user.click(confirm);
    expect(within(dialog).getByText(ACCESS_REVIEW_MESSAGES.commentRequired)).toBeVisible();
    expect(api.callsTo(DECIDE)).toHaveLength(0);
    await user.type(within(dialog).getByRole('textbox', { name: /Comment/ }), 'Left the study');
    expect(within(dialog).getByText('14 / 250 characters')).toBeVisible();
    await user.click(confirm);
    expect(await within(dialog).findByText('Comment is too long')).toBeVisible();
    await user.click(confirm);
    expect(await screen.findByText(`${ACCESS_REVIEW_MESSAGES.decided(120)}.`)).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo(DECIDE)[1]!.body).toEqual({
      campaignId: 7,
      decision: 'REMOVE',
      comment: 'Left the study',
      filter: { text: 'smith', state: 'UNDECIDED' },
    });
  });

  it('says so when the campaign closed before the decision', async () => {
    const { user } = renderPage({
      [DECIDE]: () => reply(422, { fieldErrors: {}, globalErrors: [ACCESS_REVIEW_MESSAGES.campaignClosed] }),
    });
    await screen.findByRole('table', { name: 'Review items' });
    await user.click(screen.getByRole('checkbox', { name: 'Select Investigator of Sam Smith' }));
    await user.click(screen.getByRole('button', { name: 'Keep' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(ACCESS_REVIEW_MESSAGES.decideFailed);
    expect(alert).toHaveTextContent(ACCESS_REVIEW_MESSAGES.campaignClosed);
  });

  it('shows a closed campaign read-only with its outcomes', async () => {
    const { api } = renderPage(
      {
        [MINE]: () => reply(200, { reviewer: true, campaigns: [] }),
        [ITEMS]: () =>
          reply(
            200,
            itemsPage([reviewItem({ id: 9, campaignId: 5, decision: 'REMOVE', outcome: 'REMOVED', changed: true })]),
          ),
      },
      '/app/access-reviews?campaignId=5',
    );
    const table = await screen.findByRole('table', { name: 'Review items' });
    expect(screen.getByText(/This campaign is no longer open/)).toBeVisible();
    expect(within(table).queryByRole('checkbox')).toBeNull();
    expect(within(table).getByText('Removed')).toBeVisible();
    // Removed at close, the record is no longer active: that is the outcome, not a change since the snapshot.
    expect(within(table).queryByText('Changed since the review started')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Keep' })).toBeNull();
    expect(api.callsTo(ITEMS)[0]!.search).toBe('?campaignId=5&page=1&size=50&state=ALL');
  });

  it('names a failed load of the items, with a retry', async () => {
    renderPage({ [ITEMS]: () => reply(500, { message: 'boom' }) });
    expect(await screen.findByText(ACCESS_REVIEW_MESSAGES.loadItems)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeVisible();
  });
});

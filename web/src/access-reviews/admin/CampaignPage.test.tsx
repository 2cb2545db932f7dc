/**
 * One campaign (issue 25, ADMIN) on mocked HTTP: counts, the chart by reviewer and pool with its table, the
 * Temporal UI link, 'Close now' only after its confirmation (and what it says; the page then follows the
 * closing campaign), and the decisions saved as the server's CSV file.
 */
import { ACCESS_REVIEW_MESSAGES } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { referenceHandlers } from '../../testing/referenceFixtures';
import { mockApi, reply, sequence } from '../../testing/mockApi';
import { renderRoute } from '../../testing/render';
import { campaignFixture } from './adminFixtures';
import { CampaignPage } from './CampaignPage';

const ONE = 'GET /rest/secure/system_mgmt/access_reviews/12';
const CLOSE = 'POST /rest/secure/system_mgmt/access_reviews/12/close';
const CSV = 'GET /rest/secure/system_mgmt/access_reviews/12/decisions.csv';

afterEach(() => vi.restoreAllMocks());

const closed = { ...campaignFixture, status: 'CLOSED', removedCount: 2, keptCount: 8, changedCount: 0 };

/** The campaign page over mocked HTTP: its reads answer `reads` in turn, 'Close now' answers CLOSING. */
function renderClosing(...reads: object[]) {
  const api = mockApi({
    ...referenceHandlers,
    [ONE]: sequence(...reads.map((body) => () => reply(200, body))),
    [CLOSE]: () => reply(200, { ...campaignFixture, status: 'CLOSING' }),
  });
  const { user } = renderRoute({
    path: '/app/access-review-campaigns/:id',
    url: '/app/access-review-campaigns/12',
    element: <CampaignPage />,
    permissions: ['ADMIN'],
  });
  return { api, user };
}

describe('Access review campaign', () => {
  it('shows the progress by reviewer and pool, and closes only after the confirmation', async () => {
    const { api, user } = renderClosing(campaignFixture, { ...campaignFixture, status: 'CLOSING' }, closed);
    expect(await screen.findByRole('heading', { level: 1, name: 'MA036 spring review' })).toBeVisible();
    expect(screen.getByTestId('campaign-status')).toHaveTextContent('Open');
    expect(screen.getByTestId('count-decided')).toHaveTextContent('6');
    expect(screen.getByTestId('count-to-remove')).toHaveTextContent('2');
    expect(screen.getByRole('img')).toHaveAccessibleName(
      'laostaff: 4 Keep, 2 Remove; LAO MA036 (undecided): 3 Undecided; User Support (undecided): 1 Undecided',
    );
    const numbers = screen.getByRole('table', { name: 'Decisions by reviewer and undecided items by pool' });
    expect(within(numbers).getByRole('row', { name: /laostaff/ })).toHaveTextContent('laostaff42');
    expect(screen.getByRole('link', { name: /Open workflow in Temporal UI/ })).toHaveAttribute(
      'href',
      campaignFixture.workflowUrl,
    );
    expect(await screen.findByText('Study Data Capture')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Close now' }));
    const dialog = await screen.findByRole('dialog', { name: 'Close the campaign now?' });
    expect(dialog).toHaveTextContent('The 4 undecided item(s) get the default (Keep)');
    await user.click(within(dialog).getByRole('button', { name: 'Keep it open' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo(CLOSE)).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Close now' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Close now' }));
    expect(await screen.findByText(ACCESS_REVIEW_MESSAGES.closing)).toBeVisible();
    expect(api.callsTo(CLOSE)).toHaveLength(1);
    expect(await screen.findByText('Closing')).toBeVisible();
    // Once closed, the page says what the close did instead of 'closing'.
    expect(
      await screen.findByText(
        'The campaign closed: 2 access record(s) removed, 8 kept, 0 changed since the review started.',
      ),
    ).toBeVisible();
    expect(screen.queryByText(ACCESS_REVIEW_MESSAGES.closing)).toBeNull();
  });

  it('follows a close the workflow has not begun yet: the campaign still reads Open just after the close', async () => {
    // The close update answers once the workflow accepts it; the campaign row turns CLOSING only when the
    // workflow's first closing step commits, so the re-read right after the close may still say OPEN.
    const { user } = renderClosing(campaignFixture, campaignFixture, { ...campaignFixture, status: 'CLOSING' }, closed);
    await user.click(await screen.findByRole('button', { name: 'Close now' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Close now' }));
    expect(await screen.findByText(ACCESS_REVIEW_MESSAGES.closing)).toBeVisible();
    expect(
      await screen.findByText(
        'The campaign closed: 2 access record(s) removed, 8 kept, 0 changed since the review started.',
      ),
    ).toBeVisible();
    expect(screen.getByTestId('campaign-status')).toHaveTextContent('Closed');
  });

  it('saves the decisions under the name the server gives', async () => {
    mockApi({
      ...referenceHandlers,
      [ONE]: () => reply(200, campaignFixture),
      [CSV]: () =>
        new Response('\ufeffItem\r\n1\r\n', {
          status: 200,
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': 'attachment; filename="access-review-12-decisions.csv"',
          },
        }),
    });
    const saved: string[] = [];
    URL.createObjectURL = vi.fn(() => 'blob:csv');
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const { user } = renderRoute({
      path: '/app/access-review-campaigns/:id',
      url: '/app/access-review-campaigns/12',
      element: <CampaignPage />,
      permissions: ['ADMIN'],
    });
    await user.click(await screen.findByRole('button', { name: 'Download decisions (CSV)' }));
    expect(await screen.findByText('Decisions downloaded: access-review-12-decisions.csv')).toBeVisible();
    expect(saved).toEqual(['access-review-12-decisions.csv']);
  });
});

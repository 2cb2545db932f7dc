/**
 * Access Review Campaigns (issue 25, ADMIN) on mocked HTTP: the page of campaigns asked for with the URL's
 * size, 'New campaign', and the recurring reviews read on their tab (kept in the URL).
 */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, reply } from '../../testing/mockApi';
import { renderRoute } from '../../testing/render';
import { itemsPage } from '../reviewFixtures';
import { campaignFixture, scheduleFixture } from './adminFixtures';
import { CampaignsPage } from './CampaignsPage';

const LIST = 'GET /rest/secure/system_mgmt/access_reviews';
const SCHEDULES = 'GET /rest/secure/system_mgmt/access_review_schedules';

const page = itemsPage;

describe('Access Review Campaigns', () => {
  // mantine-datatable lays its rows out only in a real browser: the rows, their Temporal UI links and
  // 'Deactivate' with its confirmation are checked by tests/e2e/access-review-campaign.spec.ts.
  it('reads a page of campaigns, and the recurring reviews on their tab', async () => {
    const api = mockApi({
      [LIST]: () => reply(200, page([campaignFixture])),
      [SCHEDULES]: () => reply(200, page([scheduleFixture])),
    });
    const { user, router } = renderRoute({
      path: '/app/access-review-campaigns',
      url: '/app/access-review-campaigns?size=50',
      element: <CampaignsPage />,
      permissions: ['ADMIN'],
    });
    expect(await screen.findByText('1 of 1 records shown')).toBeInTheDocument();
    expect(api.callsTo(LIST)[0]!.search).toBe('?page=1&size=50');
    expect(screen.getByRole('link', { name: 'New campaign' })).toHaveAttribute(
      'href',
      '/app/access-review-campaigns/new',
    );
    await user.click(screen.getByRole('tab', { name: 'Recurring reviews' }));
    await waitFor(() => expect(api.callsTo(SCHEDULES)).toHaveLength(1));
    expect(await screen.findByRole('table', { name: 'Recurring access reviews' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?tab=recurring');
    expect(api.callsTo(SCHEDULES)[0]!.search).toBe('?page=1&size=200');
  });
});

/**
 * New campaign (issue 25, ADMIN) on mocked HTTP: a one-off campaign over one LAO sent as the contract's body
 * and its page opened; the 422's field errors beside their fields (a list element's on its list); the warning
 * of a Remove default; a recurring review sent to the schedules with its interval and the recurring list
 * opened with its message.
 */
import { ACCESS_REVIEW_MESSAGES, ACCESS_REVIEW_REVIEWER_LABELS } from '@portal/contract';
import { screen, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { referenceHandlers } from '../../testing/referenceFixtures';
import { mockApi, reply, sequence } from '../../testing/mockApi';
import { renderRoute } from '../../testing/render';
import { campaignFixture, scheduleFixture } from './adminFixtures';
import { NewCampaignPage } from './NewCampaignPage';

const CREATE = 'POST /rest/secure/system_mgmt/access_reviews';
const SCHEDULE = 'POST /rest/secure/system_mgmt/access_review_schedules';

/** Picks an option of a multi-select; Mantine's dropdown is still in its opening transition in jsdom. */
async function pickOption(user: UserEvent, label: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option, hidden: true }));
}

function renderForm() {
  return renderRoute({
    path: '/app/access-review-campaigns/new',
    url: '/app/access-review-campaigns/new',
    element: <NewCampaignPage />,
    permissions: ['ADMIN'],
    otherRoutes: [
      { path: '/app/access-review-campaigns/:id', element: <p>campaign page</p> },
      { path: '/app/access-review-campaigns', element: <p>campaigns list</p> },
    ],
  });
}

describe('New access review campaign', () => {
  it('shows the 422 beside the fields, then starts the campaign and opens it', async () => {
    const api = mockApi({
      ...referenceHandlers,
      [CREATE]: sequence(
        () =>
          reply(422, {
            fieldErrors: { name: ['unique'], 'scope.laoIds.0': ['unknown'], durationDays: ['integer'] },
            globalErrors: [],
          }),
        () => reply(200, campaignFixture),
      ),
    });
    const { user, router } = renderForm();
    await user.click(await screen.findByRole('button', { name: 'Start campaign' }));
    expect(screen.getByText('Name is required')).toBeVisible();
    expect(api.callsTo(CREATE)).toHaveLength(0);

    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'MA036 spring review');
    await pickOption(user, 'LAOs', 'NLAO - North Lead');
    expect(screen.getByRole('radio', { name: ACCESS_REVIEW_REVIEWER_LABELS.LAO_STAFF })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: 'Remove the access' }));
    expect(screen.getByText('Undecided access will be removed')).toBeVisible();
    await user.click(screen.getByRole('radio', { name: 'Keep the access' }));
    expect(screen.queryByText('Undecided access will be removed')).toBeNull();
    await user.clear(screen.getByRole('textbox', { name: 'Duration (days)' }));
    await user.type(screen.getByRole('textbox', { name: 'Duration (days)' }), '2');

    await user.click(screen.getByRole('button', { name: 'Start campaign' }));
    expect(await screen.findByText('Name is already in use')).toBeVisible();
    expect(screen.getByText('LAOs are unknown')).toBeVisible();
    expect(screen.getByText('Duration must be an integer')).toBeVisible();
    expect(screen.getByRole('alert')).toHaveTextContent(ACCESS_REVIEW_MESSAGES.saveCampaignFailed);
    expect(api.callsTo(CREATE)[0]!.body).toEqual({
      name: 'MA036 spring review',
      scope: { systemAccessIds: [], roleNames: [], laoIds: ['NLAO'] },
      reviewers: 'LAO_STAFF',
      durationDays: 2,
      reminderEveryDays: 3,
      defaultDecision: 'KEEP',
    });

    await user.click(screen.getByRole('button', { name: 'Start campaign' }));
    expect(await screen.findByText('campaign page')).toBeVisible();
    expect(router.state.location.pathname).toBe('/app/access-review-campaigns/12');
    expect(router.state.location.state).toEqual({ message: ACCESS_REVIEW_MESSAGES.started('MA036 spring review') });
  });

  it('saves a recurring review with its interval', async () => {
    const api = mockApi({ ...referenceHandlers, [SCHEDULE]: () => reply(200, scheduleFixture) });
    const { user, router } = renderForm();
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Quarterly review');
    await user.click(screen.getByRole('radio', { name: ACCESS_REVIEW_REVIEWER_LABELS.USER_SUPPORT }));
    await user.click(screen.getByRole('radio', { name: 'Recurring, the first one now' }));
    const every = screen.getByRole('textbox', { name: 'Every (days)' });
    expect(every).toHaveValue('90');
    await user.clear(every);
    await user.type(every, '30');
    await pickOption(user, 'Systems', 'Study Data Capture');
    await user.click(screen.getByRole('button', { name: 'Save recurring review' }));
    expect(await screen.findByText('campaigns list')).toBeVisible();
    expect(router.state.location.search).toBe('?tab=recurring');
    expect(api.callsTo(SCHEDULE)[0]!.body).toMatchObject({
      name: 'Quarterly review',
      reviewers: 'USER_SUPPORT',
      everyDays: 30,
      scope: { systemAccessIds: [2], roleNames: [], laoIds: [] },
    });
    expect(within(document.body).queryByRole('alert')).toBeNull();
  });
});

/**
 * The new campaign form (issue 25) on mocked HTTP: a submit without a name says so beside the field, moves
 * focus to it and announces the form's error summary, without calling the server.
 */
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, reply } from '../../testing/mockApi';
import { renderRoute } from '../../testing/render';
import { NewCampaignPage } from './NewCampaignPage';

afterEach(() => vi.restoreAllMocks());

describe('New Access Review Campaign', () => {
  it('moves focus to the missing name and announces the error', async () => {
    const api = mockApi({
      'GET /rest/public/sites': () => reply(200, []),
      'GET /rest/public/user_registration/study_roles/': () => reply(200, []),
      'GET /rest/public/user_registration/system_accesses/': () => reply(200, []),
    });
    const { user } = renderRoute({
      path: '/app/access-review-campaigns/new',
      url: '/app/access-review-campaigns/new',
      element: <NewCampaignPage />,
      permissions: ['USER', 'ADMIN'],
    });
    await user.click(screen.getByRole('button', { name: 'Start campaign' }));
    const name = screen.getByRole('textbox', { name: 'Name' });
    expect(name).toHaveAccessibleDescription(/Name is required/);
    await waitFor(() => expect(name).toHaveFocus());
    expect(screen.getByRole('alert')).toHaveTextContent(/need your attention/);
    expect(api.callsTo('POST /rest/secure/access_review/campaign')).toEqual([]);
  });
});

/**
 * The profile-change review's guard (001 §2.10): leaving with edits opens 'Unsaved Changes - You have unsaved
 * changes on this page.' (this screen's words, with the period) with 'Abandon Changes' or 'Go Back'.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, reply } from '../../../testing/mockApi';
import { profileChangeRequestFixture } from '../../../testing/profileFixtures';
import { renderRoute } from '../../../testing/render';
import { ReviewProfileChangePage } from './ReviewProfileChangePage';

describe('ReviewProfileChangePage', () => {
  it("asks before leaving with edits, in 001 §2.10's words", async () => {
    mockApi({
      'GET /rest/secure/ldap_user_profile_mod_request/3': () =>
        reply(200, profileChangeRequestFixture({ allowedNextStatuses: ['IN_PROGRESS', 'APPROVED', 'REJECTED'] })),
    });
    const { user } = renderRoute({
      path: '/app/user-requests/profile-change/:id',
      url: '/app/user-requests/profile-change/3',
      element: <ReviewProfileChangePage />,
      permissions: ['USER', 'READ_USERS', 'WRITE_USERS'],
      otherRoutes: [{ path: '/app/user-requests', element: <p>User requests queue</p> }],
    });
    await user.type(await screen.findByRole('textbox', { name: /Reviewer Comments/ }), 'Checked');
    await user.click(screen.getByRole('link', { name: /Back to User Requests Page/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Unsaved Changes' });
    expect(within(dialog).getByText('You have unsaved changes on this page.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Abandon Changes' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Go Back' })).toBeInTheDocument();
  });
});

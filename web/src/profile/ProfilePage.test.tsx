/**
 * The profile's load refused (001 §8: 'You are not authorized to view this page.' on 401 or 403, with its
 * period, where a denied secure page keeps 000 §8's text without one).
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, reply } from '../testing/mockApi';
import { renderRoute } from '../testing/render';
import { ProfilePage } from './ProfilePage';

const parts = { NameEmailRequest: () => null, OutstandingRequestBanner: () => null };

describe('ProfilePage', () => {
  it("shows 001's not-authorized text when the profile's load is refused with 403", async () => {
    mockApi({ 'GET /rest/secure/user_profile': () => reply(403, { message: 'Forbidden' }) });
    renderRoute({ path: '/app/profile', url: '/app/profile', element: <ProfilePage profileChange={parts} /> });
    expect(await screen.findByText('You are not authorized to view this page.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });
});

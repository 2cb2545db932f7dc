/**
 * In-app Change Password inside the minimum-age restriction (000 §2 Change Password; issue 9): the form is
 * disabled under the rule and says from when a change is possible, from the API's `changeAllowedFrom`.
 */
import type { PasswordChangeRestriction } from '@portal/contract';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, reply } from '../testing/mockApi';
import { renderRoute } from '../testing/render';
import { AppChangePasswordPage } from './AppChangePasswordPage';

const MIN_AGE = 'You may change your password once every 24 hours';

function renderPage(restriction: PasswordChangeRestriction) {
  mockApi({
    'GET /rest/secure/user_capabilities/can_change_password_ever': () => reply(200, true),
    'GET /rest/secure/user_capabilities/password_change_restriction': () => reply(200, restriction),
    'GET /rest/public/password_validation/rules': () =>
      reply(200, {
        minLength: { id: 'minLength', text: 'At least 12 characters long' },
        minAge: { id: 'minAge', text: MIN_AGE },
      }),
  });
  return renderRoute({ path: '/app/change-password', url: '/app/change-password', element: <AppChangePasswordPage /> });
}

describe('Change Password inside the 24-hour restriction', () => {
  it('disables the form and says from when a change is possible', async () => {
    // A local time, so the expected text does not depend on the machine's time zone.
    renderPage({ canChangeNow: false, changeAllowedFrom: new Date(2026, 10, 23, 14, 5).toISOString() });
    const alert = await screen.findByText(/You can change it again/);
    expect(alert.closest('[role="status"]')).toHaveTextContent(MIN_AGE);
    expect(alert).toHaveTextContent('You can change it again from 11/23/2026 2:05 PM.');
    expect(screen.getByLabelText(/^Current Password/)).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Change Password' })).toBeDisabled();
  });

  it('keeps the form usable when no restriction stands', async () => {
    renderPage({ canChangeNow: true, changeAllowedFrom: null });
    expect(await screen.findByLabelText(/^Current Password/)).toBeEnabled();
    expect(screen.queryByText(/You can change it again/)).toBeNull();
  });
});

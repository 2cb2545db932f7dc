/**
 * The user detail's password section (000 §2 User detail, §8 resend alerts and restriction texts): the
 * failures a journey cannot provoke on a real stack (a check that cannot be made, a refused or failed send, a
 * restriction that cannot be read or cleared). The happy paths run in tests/e2e/dashboard.spec.ts.
 */
import type { UserDetail } from '@portal/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, reply, sequence, type Handler } from '../testing/mockApi';
import { renderRoute } from '../testing/render';
import { PasswordSection } from './PasswordSection';

const user = {
  id: 7,
  uuid: '5b0c6f4e-1d2a-4c3b-9e8f-0a1b2c3d4e5f',
  firstName: 'Casey',
  lastName: 'Lapsed',
} as UserDetail;
const M = '/rest/secure/user_management';
const ADMIN = '/rest/secure/admin/user_management';

function renderSection(handlers: Record<string, Handler>) {
  const api = mockApi(handlers);
  const view = renderRoute({
    path: '/app/users/:id',
    url: '/app/users/7',
    element: <PasswordSection user={user} readOnly={false} />,
    permissions: ['ADMIN', 'WRITE_USERS', 'READ_USERS', 'USER'],
  });
  return { ...view, api };
}

describe('PasswordSection', () => {
  it("answers every 'Email Not Sent' reason the checks and the send can give", async () => {
    const { user: u, api } = renderSection({
      // First the check fails, then it passes.
      [`GET ${M}/can_change_password_ever/7`]: sequence(
        () => reply(200, true),
        () => reply(503, { message: 'down' }),
        () => reply(200, true),
      ),
      [`GET ${M}/hasSetInitialPassword/7`]: () => reply(200, false),
      [`GET ${ADMIN}/isUserCurrentlyRestrictedByAllowChangeTime/${user.uuid}`]: () => reply(200, false),
      'POST /rest/secure/set_initial_password/resend/7': sequence(
        () => reply(409, { message: 'This user has already set their initial password' }),
        () => reply(500, { message: 'boom' }),
      ),
    });
    await screen.findByText('Password managed by the portal: Yes');
    const resend = screen.getByRole('button', { name: 'Resend initial email' });

    await u.click(resend);
    const alert = await screen.findByTestId('password-alert');
    expect(alert).toHaveTextContent('Email Not Sent');
    expect(alert).toHaveTextContent(
      'Unexpected error: failed to determine whether user is allowed to set their password',
    );
    expect(api.callsTo('POST /rest/secure/set_initial_password/resend/7')).toHaveLength(0);

    await u.click(resend);
    await waitFor(() =>
      expect(screen.getByTestId('password-alert')).toHaveTextContent(
        'This user has already set their initial password',
      ),
    );
    await u.click(resend);
    await waitFor(() =>
      expect(screen.getByTestId('password-alert')).toHaveTextContent(
        'Failed to resend initial email due to unexpected error',
      ),
    );
    expect(screen.getByText('Not restricted: the user may change their password now.')).toBeInTheDocument();
  });

  it('says when the restriction cannot be read, and when it cannot be cleared', async () => {
    const { user: u } = renderSection({
      [`GET ${M}/can_change_password_ever/7`]: () => reply(200, true),
      [`GET ${M}/hasSetInitialPassword/7`]: () => reply(200, true),
      [`GET ${ADMIN}/isUserCurrentlyRestrictedByAllowChangeTime/${user.uuid}`]: sequence(
        () => reply(200, true),
        () => reply(503, { message: 'down' }),
      ),
      [`GET ${ADMIN}/passwordChangeRestriction/${user.uuid}`]: () =>
        reply(200, { restricted: true, changeAllowedFrom: '2026-11-23T10:00:00.000Z' }),
      [`POST ${ADMIN}/clearUsersPasswordAllowChangeTime/${user.uuid}`]: () => reply(503, { message: 'down' }),
    });
    await waitFor(() => expect(screen.getByTestId('password-restriction')).toHaveTextContent(/until 11\/23\/2026/));
    await u.click(screen.getByRole('button', { name: 'Remove password-change time restriction' }));
    await u.click(await screen.findByRole('button', { name: 'OK' }));
    expect(await screen.findByText("Unable to clear user's password-change time restriction.")).toBeInTheDocument();
    // The reload after the attempt fails: the section says so.
    expect(
      await screen.findByText('Unable to determine if user is currently restricted from changing their password.'),
    ).toBeInTheDocument();
  });
});

/**
 * The profile's Details tab (000 §2 Profile, §4 Saving / Country change, §8): the profile's values with country
 * and state objects, the body sent (the profile with the Details values, country and state as codes), 304
 * info, a 422 under its field with the page message, success ('User Profile Updated', the form clean again),
 * and read-only without USER.
 */
import { PROFILE_DETAILS_MESSAGES, type Permission, type Profile } from '@portal/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, reply, type Handler } from '../../testing/mockApi';
import { profileFixture } from '../../testing/profileFixtures';
import { renderRoute } from '../../testing/render';
import { ProfileDetailsTab } from './ProfileDetailsTab';

const PUT = 'PUT /rest/secure/user_profile_mod';
const profile: Profile = profileFixture({
  uuid: 'u-7',
  organizationName: 'North Lead',
  phoneNumber: '555-0100',
  city: 'Toronto',
  country: { country: 'CA', countryName: 'Canada' },
  state: { state: 'ON', stateName: 'Ontario' },
});

function renderTab(handlers: Record<string, Handler>, permissions: Permission[] = ['USER']) {
  const api = mockApi({
    'GET /rest/public/countries': () =>
      reply(200, [
        { country: 'CA', countryName: 'Canada' },
        { country: 'US', countryName: 'United States' },
      ]),
    'GET /rest/public/states/CA': () => reply(200, [{ state: 'ON', stateName: 'Ontario' }]),
    ...handlers,
  });
  const view = renderRoute({
    path: '/app/profile',
    url: '/app/profile?tab=details',
    element: <ProfileDetailsTab profile={profile} />,
    permissions,
  });
  return { ...view, api };
}

describe('ProfileDetailsTab', () => {
  it('saves: 304 info, 422 under the field, then success with the form clean', async () => {
    const { user, api } = renderTab({
      [PUT]: ({ body }) => {
        const b = body as Profile & { city: string };
        if (b.city === 'Toronto') return reply(304);
        if (b.city === 'Nowhere') return reply(422, { fieldErrors: { phoneNumber: ['invalid'] }, globalErrors: [] });
        return reply(200, { ...profile, city: b.city });
      },
    });
    const city = screen.getByRole('textbox', { name: 'City (optional)' });
    expect(city).toHaveValue('Toronto');
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Country (optional)' })).toHaveValue('Canada'));

    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText(PROFILE_DETAILS_MESSAGES.noChanges)).toBeInTheDocument();

    await user.clear(city);
    await user.type(city, 'Nowhere');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Phone Number is invalid')).toBeInTheDocument();
    expect(screen.getByText(PROFILE_DETAILS_MESSAGES.updateFailed)).toBeInTheDocument();

    await user.clear(city);
    await user.type(city, 'Ottawa');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText(PROFILE_DETAILS_MESSAGES.updated)).toBeInTheDocument();
    const sent = api.callsTo(PUT).at(-1)!.body;
    expect(sent).toMatchObject({ portalUserId: 7, firstName: 'Ada', city: 'Ottawa', country: 'CA', state: 'ON' });
    // Saved: Reset keeps the saved value (it is the form's own now).
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    expect(city).toHaveValue('Ottawa');
  });

  it('is read-only without USER', async () => {
    renderTab({}, ['SET_OWN_PASSWORD']);
    expect(screen.getByRole('textbox', { name: 'City (optional)' })).toHaveAttribute('readonly');
    expect(screen.queryByRole('button', { name: 'Save Changes' })).not.toBeInTheDocument();
  });
});

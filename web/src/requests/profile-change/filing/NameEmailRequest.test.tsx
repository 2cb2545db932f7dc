/**
 * The Account tab's name and email request (001 §2.10 submission; 000 §5 one outstanding request, internal
 * accounts locked): client checks before any call, the trimmed body sent, the form locked with the outstanding
 * request once filed, the server's 422 (taken email under its field, REQUEST_IN_PROGRESS) and 304 answers.
 */
import { GLOBAL_ERRORS, PROFILE_CHANGE_MESSAGES, type Profile, type ProfileChangeRequest } from '@portal/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, pageOf, reply, sequence, type Handler } from '../../../testing/mockApi';
import { profileChangeRequestFixture } from '../../../testing/profileFixtures';
import { renderRoute } from '../../../testing/render';
import { NameEmailRequest } from './NameEmailRequest';

const LIST = 'GET /rest/secure/ldap_user_profile_mod_request/user';
const POST = 'POST /rest/secure/ldap_user_profile_mod_request';

const profile = (patch: Partial<Profile> = {}) =>
  ({
    portalUserId: 7,
    username: 'casey',
    firstName: 'Casey',
    lastName: 'Lapsed',
    email: 'casey@portal.test',
    accountType: 'external',
    roles: [],
    userAccesses: [],
    ...patch,
  }) as unknown as Profile;

const request = (patch: Partial<ProfileChangeRequest> = {}): ProfileChangeRequest =>
  profileChangeRequestFixture({ lastName: 'Married', allowedNextStatuses: ['NEW', 'IN_PROGRESS'], ...patch });

function renderForm(handlers: Record<string, Handler>, p = profile()) {
  const api = mockApi(handlers);
  const view = renderRoute({ path: '/profile', url: '/profile', element: <NameEmailRequest profile={p} /> });
  return { api, ...view };
}

const lastName = () => screen.getByRole('textbox', { name: /^Last Name/ });

describe('NameEmailRequest', () => {
  it('checks in the browser, sends the trimmed values, then shows the outstanding request and locks', async () => {
    const { api, user } = renderForm({
      [LIST]: sequence(
        () => reply(200, pageOf([])),
        () => reply(200, pageOf([request()])),
      ),
      [POST]: () => reply(200, request()),
    });
    await screen.findByRole('button', { name: 'Submit Request' });
    await user.clear(screen.getByRole('textbox', { name: /^First Name/ }));
    await user.click(screen.getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findByText('First Name is required')).toBeInTheDocument();
    expect(screen.getByText(PROFILE_CHANGE_MESSAGES.submitFailed)).toBeInTheDocument();
    expect(api.callsTo(POST)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Reset' }));
    await user.clear(lastName());
    await user.type(lastName(), '  Married ');
    await user.type(screen.getByRole('textbox', { name: /^Comments/ }), 'new name');
    await user.click(screen.getByRole('button', { name: 'Submit Request' }));
    await waitFor(() => expect(api.callsTo(POST)).toHaveLength(1));
    expect(api.callsTo(POST)[0]!.body).toEqual({
      portalUserId: 7,
      firstName: 'Casey',
      lastName: 'Married',
      email: 'casey@portal.test',
      requesterComments: 'new name',
    });
    expect(await screen.findByTestId('outstanding-request')).toHaveTextContent('Casey Married');
    expect(screen.queryByRole('button', { name: 'Submit Request' })).not.toBeInTheDocument();
    expect(lastName()).toHaveValue('Lapsed');
    expect(lastName()).toHaveAttribute('readonly');
  });

  it('shows a taken email under its field, REQUEST_IN_PROGRESS as the outstanding text, 304 as no changes', async () => {
    const { user } = renderForm({
      [LIST]: () => reply(200, pageOf([])),
      [POST]: sequence(
        () => reply(422, { fieldErrors: { email: [PROFILE_CHANGE_MESSAGES.emailInUse] }, globalErrors: [] }),
        () => reply(422, { fieldErrors: {}, globalErrors: [GLOBAL_ERRORS.requestInProgress] }),
        () => reply(304),
      ),
    });
    const submit = await screen.findByRole('button', { name: 'Submit Request' });
    await user.clear(screen.getByRole('textbox', { name: /^Email/ }));
    await user.type(screen.getByRole('textbox', { name: /^Email/ }), 'taken@portal.test');
    await user.click(submit);
    expect(await screen.findByText(PROFILE_CHANGE_MESSAGES.emailInUse)).toBeInTheDocument();
    await user.click(submit);
    expect(await screen.findByText(PROFILE_CHANGE_MESSAGES.outstanding)).toBeInTheDocument();
    await user.click(submit);
    expect(await screen.findByText(PROFILE_CHANGE_MESSAGES.noChanges)).toBeInTheDocument();
  });

  it("keeps an internal account's name and email read-only, with no way to submit", async () => {
    renderForm({ [LIST]: () => reply(200, pageOf([])) }, profile({ accountType: 'internal' }));
    expect(await screen.findByText(/managed by your organisation/)).toBeInTheDocument();
    expect(lastName()).toHaveAttribute('readonly');
    expect(screen.queryByRole('button', { name: 'Submit Request' })).not.toBeInTheDocument();
  });
});

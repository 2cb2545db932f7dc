/**
 * 'Sign in with a passkey' (docs/decisions.md "Passkeys") on mocked HTTP, with the browser's WebAuthn prompt
 * stubbed: the discoverable credential's answer signs in and goes on; the API's refusals show its words, and
 * a person whose password must be changed is sent to the password form.
 */
import { MESSAGES, PASSKEY_TEXTS } from '@portal/contract';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, reply } from '../testing/mockApi';
import { renderRoute } from '../testing/render';
import { SignInPage } from './SignInPage';

const browser = vi.hoisted(() => ({ startAuthentication: vi.fn(), startRegistration: vi.fn() }));
vi.mock('@simplewebauthn/browser', () => browser);

const ASSERTION = {
  id: 'cred-1',
  rawId: 'cred-1',
  type: 'public-key',
  response: { clientDataJSON: 'eyJ9', authenticatorData: 'AAAA', signature: 'BBBB', userHandle: 'dQ' },
  clientExtensionResults: {},
};

function renderSignIn() {
  const view = renderRoute({
    path: '/',
    url: '/?redirectPath=%2Fapp%2Fusers',
    element: <SignInPage />,
    permissions: [],
    otherRoutes: [
      { path: '/app/*', element: <p>App page</p> },
      { path: '/change-password', element: <p>Change password page</p> },
    ],
  });
  return { ...view, at: () => view.router.state.location.pathname };
}

beforeEach(() => {
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
  browser.startAuthentication.mockReset();
  browser.startAuthentication.mockResolvedValue(ASSERTION);
});

describe('Sign in with a passkey', () => {
  it('signs in with a discoverable passkey and goes where the person was going', async () => {
    const api = mockApi({
      'POST /rest/token/webauthn/options': () => reply(200, { options: { challenge: 'c-1' } }),
      'POST /rest/token/webauthn': () => reply(200, { tokenTimeoutInSeconds: 3600, xsrfToken: 'x' }),
    });
    const { user, at } = renderSignIn();
    await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    await waitFor(() => expect(at()).toBe('/app/users'));
    expect(browser.startAuthentication).toHaveBeenCalledWith({ optionsJSON: { challenge: 'c-1' } });
    expect(api.callsTo('POST /rest/token/webauthn')[0]?.body).toEqual({ assertion: ASSERTION });
  });

  it('sends a person whose password expires soon to Change Password first, keeping where they were going', async () => {
    mockApi({
      'POST /rest/token/webauthn/options': () => reply(200, { options: { challenge: 'c-5' } }),
      'POST /rest/token/webauthn': () =>
        reply(200, {
          tokenTimeoutInSeconds: 3600,
          passwordExpiresSoon: true,
          expiryState: 'WarnUserToChangePassword',
          xsrfToken: 'x',
        }),
    });
    const { user, at, router } = renderSignIn();
    await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    await waitFor(() => expect(at()).toBe('/change-password'));
    const query = new URLSearchParams(router.state.location.search);
    expect(query.get('skipRefresh')).toBe('true');
    expect(query.get('redirectPath')).toBe('/app/users');
  });

  it("shows the API's words for a locked account", async () => {
    mockApi({
      'POST /rest/token/webauthn/options': () => reply(200, { options: { challenge: 'c-2' } }),
      'POST /rest/token/webauthn': () => reply(401, { accountLocked: true, message: MESSAGES.signIn.accountLocked }),
    });
    const { user } = renderSignIn();
    await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.signIn.accountLocked);
  });

  it('sends a person whose password must be changed to the password form', async () => {
    mockApi({
      'POST /rest/token/webauthn/options': () => reply(200, { options: { challenge: 'c-3' } }),
      'POST /rest/token/webauthn': () =>
        reply(401, { passwordExpired: true, usePasswordForm: true, message: PASSKEY_TEXTS.usePasswordForm }),
    });
    const { user } = renderSignIn();
    await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(PASSKEY_TEXTS.usePasswordForm);
    await waitFor(() => expect(screen.getByLabelText(/Username or Email Address/)).toHaveFocus());
  });

  it('says so when the prompt is cancelled', async () => {
    browser.startAuthentication.mockRejectedValue(Object.assign(new Error('x'), { name: 'NotAllowedError' }));
    const api = mockApi({ 'POST /rest/token/webauthn/options': () => reply(200, { options: { challenge: 'c-4' } }) });
    const { user } = renderSignIn();
    await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(PASSKEY_TEXTS.cancelled);
    expect(api.callsTo('POST /rest/token/webauthn')).toEqual([]);
  });
});

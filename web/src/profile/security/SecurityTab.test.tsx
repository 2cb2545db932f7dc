/**
 * The Security tab's passkeys and security keys (docs/decisions.md "Passkeys") on mocked HTTP, with the
 * browser's WebAuthn prompt stubbed: the keys are listed with their dates; adding one sends its name and the
 * password again, then the browser's new credential, and a first factor waits for the mailed link; the API's
 * refusal of an already registered key is shown; removing one asks for the password again; the last factor in
 * use is not offered for removal.
 */
import { PASSKEY_TEXTS, type SecondFactor, type SecondFactorOverview } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '../../shared/format';
import { mockApi, reply, sequence } from '../../testing/mockApi';
import { renderRoute } from '../../testing/render';
import { SecurityTab } from './SecurityTab';

const browser = vi.hoisted(() => ({ startAuthentication: vi.fn(), startRegistration: vi.fn() }));
vi.mock('@simplewebauthn/browser', () => browser);

const BASE = '/rest/secure/second_factor';
const CREDENTIAL = {
  id: 'cred-9',
  rawId: 'cred-9',
  type: 'public-key',
  response: { clientDataJSON: 'eyJ9', attestationObject: 'o2Nm', transports: ['internal'] },
  clientExtensionResults: {},
};

const factor = (over: Partial<SecondFactor>): SecondFactor => ({
  id: 1,
  kind: 'WEBAUTHN',
  label: 'Laptop',
  state: 'ACTIVE',
  createdAt: '2026-03-02T10:00:00Z',
  lastUsedAt: '2026-03-04T09:30:00Z',
  ...over,
});
const overview = (factors: SecondFactor[]): SecondFactorOverview => ({
  factors,
  recoveryCodesLeft: factors.length ? 10 : 0,
  required: false,
  available: true,
});

const renderTab = () =>
  renderRoute({ path: '/app/profile', url: '/app/profile?tab=security', element: <SecurityTab /> });

beforeEach(() => {
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
  browser.startRegistration.mockReset();
});

describe('the Security tab: passkeys and security keys', () => {
  it('lists the keys with when they were added and last used', async () => {
    mockApi({
      [`GET ${BASE}`]: () =>
        reply(200, overview([factor({ id: 1 }), factor({ id: 2, kind: 'TOTP', label: 'Phone', lastUsedAt: null })])),
    });
    renderTab();
    const section = await screen.findByRole('region', { name: 'Passkeys and Security Keys' });
    const row = within(section).getByRole('row', { name: /Laptop/ });
    expect(row).toHaveTextContent('In use');
    expect(row).toHaveTextContent(formatDateTime('2026-03-02T10:00:00Z'));
    expect(row).toHaveTextContent(formatDateTime('2026-03-04T09:30:00Z'));
    expect(within(section).getByRole('button', { name: 'Remove Laptop' })).toBeVisible();
  });

  it('offers no removal of the only factor in use', async () => {
    mockApi({ [`GET ${BASE}`]: () => reply(200, overview([factor({ id: 1 })])) });
    renderTab();
    const section = await screen.findByRole('region', { name: 'Passkeys and Security Keys' });
    expect(within(section).queryByRole('button', { name: 'Remove Laptop' })).not.toBeInTheDocument();
    expect(within(section).getByText(/Your only passkey in use cannot be removed/)).toBeVisible();
  });

  it('adds a first passkey: its name and the password, the browser credential, then the mailed link', async () => {
    browser.startRegistration.mockResolvedValue(CREDENTIAL);
    const api = mockApi({
      [`GET ${BASE}`]: sequence(
        () => reply(200, overview([])),
        () =>
          reply(200, overview([factor({ id: 7, label: 'Work laptop', state: 'AWAITING_EMAIL', lastUsedAt: null })])),
      ),
      [`POST ${BASE}/webauthn/options`]: () => reply(200, { options: { challenge: 'reg-1', rp: { id: 'localhost' } } }),
      [`POST ${BASE}/webauthn`]: () => reply(200, { state: 'AWAITING_EMAIL' }),
    });
    const { user } = renderTab();
    expect(await screen.findByText('You have no passkey or security key yet.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a passkey' });
    await user.clear(within(dialog).getByLabelText(/Name of the passkey/));
    await user.type(within(dialog).getByLabelText(/Name of the passkey/), 'Work laptop');
    await user.type(within(dialog).getByLabelText(/^Password/), 'my password');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Check your email')).toBeVisible();
    expect(await screen.findByText('Waiting for the emailed link')).toBeVisible();
    expect(api.callsTo(`POST ${BASE}/webauthn/options`)[0]?.body).toEqual({
      password: 'my password',
      label: 'Work laptop',
    });
    expect(browser.startRegistration).toHaveBeenCalledWith({
      optionsJSON: { challenge: 'reg-1', rp: { id: 'localhost' } },
    });
    expect(api.callsTo(`POST ${BASE}/webauthn`)[0]?.body).toEqual({ credential: CREDENTIAL });
  });

  it("shows the API's refusal of a key registered already, in the dialog", async () => {
    browser.startRegistration.mockResolvedValue(CREDENTIAL);
    mockApi({
      [`GET ${BASE}`]: () => reply(200, overview([factor({ id: 1, kind: 'TOTP', label: 'Phone' })])),
      [`POST ${BASE}/webauthn/options`]: () => reply(200, { options: { challenge: 'reg-2' } }),
      [`POST ${BASE}/webauthn`]: () => reply(422, { globalErrors: [PASSKEY_TEXTS.taken], fieldErrors: {} }),
    });
    const { user } = renderTab();
    await user.click(await screen.findByRole('button', { name: 'Add a passkey' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a passkey' });
    await user.type(within(dialog).getByLabelText(/^Password/), 'my password');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(PASSKEY_TEXTS.taken);
  });

  it('removes a passkey after the password again', async () => {
    const api = mockApi({
      [`GET ${BASE}`]: sequence(
        () => reply(200, overview([factor({ id: 1 }), factor({ id: 2, kind: 'TOTP', label: 'Phone' })])),
        () => reply(200, overview([factor({ id: 2, kind: 'TOTP', label: 'Phone' })])),
      ),
      [`POST ${BASE}/1/remove`]: () => reply(200, {}),
    });
    const { user } = renderTab();
    await user.click(await screen.findByRole('button', { name: 'Remove Laptop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Laptop' });
    expect(dialog).toHaveTextContent('It will no longer sign you in.');
    await user.type(within(dialog).getByLabelText(/^Password/), 'my password');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.getByText('You have no passkey or security key yet.')).toBeVisible());
    expect(api.callsTo(`POST ${BASE}/1/remove`)[0]?.body).toEqual({ password: 'my password' });
  });
});

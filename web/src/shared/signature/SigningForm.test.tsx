/**
 * Signing with a passkey (docs/decisions.md "Electronic signatures"; 21 CFR Part 11 §11.200, §11.70) on mocked
 * HTTP with the browser's WebAuthn prompt stubbed: 'Sign with a passkey' asks the API for a challenge made
 * for the decision about to be sent and its meaning, hands it to the prompt, and the ticket call carries the
 * assertion (no username, no password); the decision then goes with its ticket. A person without a passkey
 * reads the API's words, a cancelled prompt says so, and neither sends the decision. A browser without
 * WebAuthn is offered the password only.
 */
import {
  PASSKEY_TEXTS,
  SIGNATURE_HEADER,
  SIGNATURE_PASSKEY_OPTIONS_PATH,
  SIGNATURE_TEXTS,
  SIGNATURE_TICKET_PATH,
} from '@portal/contract';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { apiPut, setXsrfToken } from '../../lib/apiClient';
import { sendSigned } from '../../lib/signature';
import { mockApi, reply } from '../../testing/mockApi';
import { PASSKEY_ASSERTION, withWebAuthn } from '../../testing/passkeyFixtures';
import { renderRoute } from '../../testing/render';
import { SigningForm } from './SigningForm';

const browser = vi.hoisted(() => ({ startAuthentication: vi.fn(), startRegistration: vi.fn() }));
vi.mock('@simplewebauthn/browser', () => browser);

const OPTIONS = `POST ${SIGNATURE_PASSKEY_OPTIONS_PATH}`;
const TICKET = `POST ${SIGNATURE_TICKET_PATH}`;
const PATH = '/rest/secure/user_management/deactivate_user/7';
const DECISION = `PUT ${PATH}`;
const BODY = { reason: 'left the network' };
const ASSERTION = PASSKEY_ASSERTION;

/** The form as a screen shows it, signing the deactivation of user 7; `closed` counts its closes. */
function renderForm() {
  setXsrfToken('xsrf-1');
  const closed = vi.fn();
  const view = renderRoute({
    path: '/',
    url: '/',
    element: (
      <SigningForm
        action="USER_STATUS"
        meanings={['Approved']}
        labels={{ confirm: 'OK', cancel: 'Cancel' }}
        onSign={(credentials) => sendSigned(credentials, () => apiPut(PATH, BODY))}
        onClose={closed}
      />
    ),
  });
  return { ...view, closed };
}

beforeEach(() => withWebAuthn(browser.startAuthentication));

describe('signing with a passkey', () => {
  it("signs the API's challenge for this decision and sends the decision with its ticket", async () => {
    browser.startAuthentication.mockResolvedValue(ASSERTION);
    const api = mockApi({
      [OPTIONS]: () => reply(200, { options: { challenge: 'c-sig', allowCredentials: [{ id: 'cred-1' }] } }),
      [TICKET]: () => reply(200, { ticket: 'ticket-pk', expiresAt: '2026-12-03T12:00:00Z' }),
      [DECISION]: () => reply(200, { id: 7, inactive: true }),
    });
    const { user, closed } = renderForm();
    await user.click(screen.getByRole('button', { name: SIGNATURE_TEXTS.signWithPasskey }));

    await waitFor(() => expect(closed).toHaveBeenCalled());
    const decision = { method: 'PUT', path: PATH, body: BODY };
    expect(api.callsTo(OPTIONS).map((c) => c.body)).toEqual([{ action: 'USER_STATUS', meaning: 'Approved', decision }]);
    expect(browser.startAuthentication).toHaveBeenCalledWith({
      optionsJSON: { challenge: 'c-sig', allowCredentials: [{ id: 'cred-1' }] },
    });
    expect(api.callsTo(TICKET).map((c) => c.body)).toEqual([
      { action: 'USER_STATUS', meaning: 'Approved', assertion: ASSERTION, decision },
    ]);
    expect(api.callsTo(DECISION).map((c) => c.headers[SIGNATURE_HEADER])).toEqual(['ticket-pk']);
  });

  it('without a passkey, says to sign with the password, and sends nothing', async () => {
    const api = mockApi({
      [OPTIONS]: () => reply(422, { fieldErrors: { assertion: [SIGNATURE_TEXTS.noPasskey] }, globalErrors: [] }),
      [DECISION]: () => reply(200, {}),
    });
    const { user, closed } = renderForm();
    await user.click(screen.getByRole('button', { name: SIGNATURE_TEXTS.signWithPasskey }));

    expect(await screen.findByRole('alert')).toHaveTextContent(SIGNATURE_TEXTS.noPasskey);
    expect(browser.startAuthentication).not.toHaveBeenCalled();
    expect(api.callsTo(DECISION)).toEqual([]);
    expect(closed).not.toHaveBeenCalled();
    // The password stays offered.
    expect(screen.getByLabelText(/^Password/)).toBeVisible();
  });

  it('a cancelled prompt says so, asks for no ticket and sends nothing', async () => {
    browser.startAuthentication.mockRejectedValue(Object.assign(new Error('x'), { name: 'NotAllowedError' }));
    const api = mockApi({
      [OPTIONS]: () => reply(200, { options: { challenge: 'c-2' } }),
      [DECISION]: () => reply(200, {}),
    });
    const { user, closed } = renderForm();
    await user.click(screen.getByRole('button', { name: SIGNATURE_TEXTS.signWithPasskey }));

    expect(await screen.findByRole('alert')).toHaveTextContent(PASSKEY_TEXTS.cancelled);
    expect(api.callsTo(TICKET)).toEqual([]);
    expect(api.callsTo(DECISION)).toEqual([]);
    expect(closed).not.toHaveBeenCalled();
  });

  it('a passkey the API refuses says so and keeps the dialog open', async () => {
    browser.startAuthentication.mockResolvedValue(ASSERTION);
    const api = mockApi({
      [OPTIONS]: () => reply(200, { options: { challenge: 'c-3' } }),
      [TICKET]: () => reply(422, { fieldErrors: { assertion: [SIGNATURE_TEXTS.passkeyRefused] }, globalErrors: [] }),
      [DECISION]: () => reply(200, {}),
    });
    const { user, closed } = renderForm();
    await user.click(screen.getByRole('button', { name: SIGNATURE_TEXTS.signWithPasskey }));

    expect(await screen.findByRole('alert')).toHaveTextContent(SIGNATURE_TEXTS.passkeyRefused);
    expect(api.callsTo(DECISION)).toEqual([]);
    expect(closed).not.toHaveBeenCalled();
  });

  it('is not offered where the browser has no WebAuthn', () => {
    vi.stubGlobal('PublicKeyCredential', undefined);
    mockApi({});
    renderForm();
    expect(screen.queryByRole('button', { name: SIGNATURE_TEXTS.signWithPasskey })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'OK' })).toBeVisible();
  });
});

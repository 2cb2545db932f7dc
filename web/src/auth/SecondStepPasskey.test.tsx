/**
 * The second step's passkey choice (docs/decisions.md "Passkeys") on mocked HTTP, with the browser's WebAuthn
 * prompt stubbed: a person with a passkey is offered it first and may switch to a code; the step-up to the
 * phishing-resistant level offers only the passkey, and a person without one reads the API's words; a
 * cancelled prompt says so and sends nothing.
 */
import { PASSKEY_TEXTS } from '@portal/contract';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setXsrfToken } from '../lib/apiClient';
import { paths } from '../lib/paths';
import { mockApi, reply } from '../testing/mockApi';
import { PASSKEY_ASSERTION, withWebAuthn } from '../testing/passkeyFixtures';
import { renderRoute } from '../testing/render';
import { SecondStepPage } from './SecondStepPage';

const browser = vi.hoisted(() => ({ startAuthentication: vi.fn(), startRegistration: vi.fn() }));
vi.mock('@simplewebauthn/browser', () => browser);

const STEP = 'POST /rest/secure/token/second_factor';
const OPTIONS = 'POST /rest/secure/token/second_factor/webauthn/options';
const ASSERTION = PASSKEY_ASSERTION;

function renderStep(query: Parameters<typeof paths.secondStep.href>[1]) {
  setXsrfToken('xsrf-1');
  const view = renderRoute({
    path: paths.secondStep.path,
    url: paths.secondStep.href('/app/requests', query),
    element: <SecondStepPage />,
    permissions: [],
    otherRoutes: [
      { path: '/', element: <p>Sign-in page</p> },
      { path: '/app/*', element: <p>App page</p> },
    ],
  });
  return { ...view, at: () => view.router.state.location.pathname };
}

beforeEach(() => withWebAuthn(browser.startAuthentication));

describe('the second step with a passkey', () => {
  it('offers the passkey first, signs the API challenge with it and goes on', async () => {
    browser.startAuthentication.mockResolvedValue(ASSERTION);
    const api = mockApi({
      [OPTIONS]: () => reply(200, { options: { challenge: 'c-1', allowCredentials: [{ id: 'cred-1' }] } }),
      [STEP]: () => reply(200, { tokenTimeoutInSeconds: 3600, passwordExpiresSoon: false }),
    });
    const { user, at } = renderStep({ methods: ['WEBAUTHN', 'TOTP', 'RECOVERY_CODE'] });
    expect(screen.queryByLabelText(/Authentication code/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Use the authenticator app' })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Use a passkey' }));
    await waitFor(() => expect(at()).toBe('/app/requests'));
    expect(browser.startAuthentication).toHaveBeenCalledWith({
      optionsJSON: { challenge: 'c-1', allowCredentials: [{ id: 'cred-1' }] },
    });
    expect(api.callsTo(STEP).map((c) => c.body)).toEqual([{ assertion: ASSERTION }]);
  });

  it('lets the person switch to a code, and back', async () => {
    const api = mockApi({ [STEP]: () => reply(200, { tokenTimeoutInSeconds: 3600 }) });
    const { user, at } = renderStep({ methods: ['WEBAUTHN', 'TOTP'] });
    await user.click(screen.getByRole('button', { name: 'Use the authenticator app' }));
    await user.type(screen.getByLabelText(/Authentication code/), '123456');
    expect(screen.getByRole('button', { name: 'Use a passkey or security key' })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(at()).toBe('/app/requests'));
    expect(api.callsTo(STEP).map((c) => c.body)).toEqual([{ code: '123456' }]);
  });

  it('says so when the prompt is cancelled, and sends nothing', async () => {
    browser.startAuthentication.mockRejectedValue(Object.assign(new Error('x'), { name: 'NotAllowedError' }));
    const api = mockApi({ [OPTIONS]: () => reply(200, { options: { challenge: 'c-2' } }) });
    const { user } = renderStep({ methods: ['WEBAUTHN'] });
    await user.click(screen.getByRole('button', { name: 'Use a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(PASSKEY_TEXTS.cancelled);
    expect(api.callsTo(STEP)).toEqual([]);
  });

  it('offers only the passkey for the phishing-resistant level', async () => {
    mockApi({
      'GET /rest/secure/second_factor': () =>
        reply(200, {
          factors: [
            { id: 1, kind: 'TOTP', label: 'App', state: 'ACTIVE', createdAt: '2026-01-01T00:00:00Z', lastUsedAt: null },
            {
              id: 2,
              kind: 'WEBAUTHN',
              label: 'Key',
              state: 'ACTIVE',
              createdAt: '2026-01-01T00:00:00Z',
              lastUsedAt: null,
            },
          ],
          recoveryCodesLeft: 10,
          required: false,
          available: true,
        }),
      'GET /rest/public/sso/config': () => reply(200, { providerName: 'Frontier Science' }),
    });
    renderStep({ level: 'phr' });
    expect(await screen.findByRole('button', { name: 'Use a passkey' })).toBeVisible();
    expect(screen.getByText(/asks for a sign-in with a passkey or security key/)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Use the authenticator app' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Use a recovery code' })).not.toBeInTheDocument();
  });

  it("shows the API's noPasskey words when the phishing-resistant level is asked and there is no passkey", async () => {
    mockApi({
      'GET /rest/secure/second_factor': () =>
        reply(200, {
          factors: [
            { id: 1, kind: 'TOTP', label: 'App', state: 'ACTIVE', createdAt: '2026-01-01T00:00:00Z', lastUsedAt: null },
          ],
          recoveryCodesLeft: 10,
          required: false,
          available: true,
        }),
      'GET /rest/public/sso/config': () => reply(200, { providerName: 'Acme Research' }),
    });
    renderStep({ level: 'phr' });
    expect(await screen.findByText(PASSKEY_TEXTS.noPasskey('Acme Research'))).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Use a passkey' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Verify' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open Security in your profile' })).toHaveAttribute(
      'href',
      '/app/profile?tab=security',
    );
  });
});

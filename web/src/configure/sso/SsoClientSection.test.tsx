/**
 * The 'Single sign-on' section of a system's page (issue 22; Configure → Systems): its states, registering a
 * client with its secret shown once, its default sign-in level (the phishing-resistant one too), field errors
 * beside their entries, rotation and removal after
 * confirmation, and the read-only view without ADMIN.
 */
import { ACR, SSO_CLIENT_MESSAGES, type SsoClient, type SystemDetail } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, reply, type Handler } from '../../testing/mockApi';
import { renderRoute } from '../../testing/render';
import { SystemPage } from '../SystemPage';

const SYSTEM = '/rest/secure/system_mgmt/system_access/5';
const CLIENT = `${SYSTEM}/sso_client`;
const system: SystemDetail = { id: 5, systemName: 'EDC', description: '', inactive: false, sort: 1, fixed: false };
const client: SsoClient = {
  systemAccessId: 5,
  clientId: 'edc',
  isPublic: false,
  redirectUris: ['https://edc.example.org/cb'],
  postLogoutRedirectUris: [],
  backchannelLogoutUri: null,
  initiateLoginUri: 'https://edc.example.org/login',
  defaultAcr: null,
  hasSecret: true,
  createdAt: '2026-11-26T03:00:00.000Z',
  updatedAt: '2026-11-26T03:00:00.000Z',
};
const SECRET = 'S3cr3t-shown-once_aaaaaaaaaaaaaaaaaaaaaaaaaaaa';

function renderSection(
  handlers: Record<string, Handler>,
  permissions: ('ADMIN' | 'READ_USERS')[] = ['ADMIN', 'READ_USERS'],
) {
  const api = mockApi({
    [`GET ${SYSTEM}`]: () => reply(200, system),
    // The provisioning section beside it (tested in provisioning/) finds none.
    [`GET ${SYSTEM}/provisioning`]: () => reply(200, null),
    ...handlers,
  });
  const view = renderRoute({
    path: '/app/configure/systems/:id',
    url: '/app/configure/systems/5',
    element: <SystemPage />,
    permissions,
  });
  return { ...view, api };
}

const section = async () => within(await screen.findByRole('region', { name: 'Single sign-on' }));

describe('single sign-on section', () => {
  it('registers a confidential client and shows its secret once, with the warning and a copy button', async () => {
    const { user, api } = renderSection({
      [`GET ${CLIENT}`]: () => reply(200, null),
      [`PUT ${CLIENT}`]: () => reply(200, { ...client, clientSecret: SECRET }),
    });
    const s = await section();
    expect(await s.findByText(SSO_CLIENT_MESSAGES.notSetUp)).toBeInTheDocument();
    await user.click(s.getByRole('button', { name: 'Set Up Single Sign-On' }));
    await user.type(s.getByRole('textbox', { name: 'Client ID' }), 'edc');
    await user.type(s.getByRole('textbox', { name: 'Redirect URI 1' }), 'https://edc.example.org/cb');
    await user.click(s.getByRole('button', { name: 'Add Post-logout redirect URI' }));
    await user.type(s.getByRole('textbox', { name: 'Post-logout redirect URI 1' }), 'http://127.0.0.1:4000/');
    // Issue 37: the level the system asks for by default.
    expect(s.getByRole('radio', { name: /^Password/ })).toBeChecked();
    await user.click(s.getByRole('radio', { name: /^Multi-factor/ }));
    await user.click(s.getByRole('button', { name: 'Register Client' }));

    const dialog = await screen.findByRole('dialog', { name: 'Client secret' });
    expect(within(dialog).getByText(SSO_CLIENT_MESSAGES.secretOnce)).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: 'Client secret of edc' })).toHaveValue(SECRET);
    expect(within(dialog).getByRole('button', { name: 'Copy Secret' })).toBeInTheDocument();
    expect(api.callsTo(`PUT ${CLIENT}`)[0]!.body).toEqual({
      clientId: 'edc',
      isPublic: false,
      redirectUris: ['https://edc.example.org/cb'],
      postLogoutRedirectUris: ['http://127.0.0.1:4000/'],
      backchannelLogoutUri: null,
      initiateLoginUri: null,
      defaultAcr: ACR.multiFactor,
    });
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByDisplayValue(SECRET)).not.toBeInTheDocument();
    expect(s.getByText('Client secret: on record (never shown again)')).toBeInTheDocument();
  });

  it('makes the phishing-resistant level a client default, and shows it checked when read back', async () => {
    const { user, api } = renderSection({
      [`GET ${CLIENT}`]: () => reply(200, { ...client, defaultAcr: ACR.phishingResistant }),
      [`PUT ${CLIENT}`]: () => reply(200, { ...client, defaultAcr: ACR.multiFactor }),
    });
    const s = await section();
    expect(await s.findByRole('radio', { name: /^Phishing-resistant/ })).toBeChecked();
    await user.click(s.getByRole('radio', { name: /^Multi-factor/ }));
    await user.click(s.getByRole('radio', { name: /^Phishing-resistant/ }));
    await user.click(s.getByRole('button', { name: 'Save Client' }));
    await waitFor(() => expect(api.callsTo(`PUT ${CLIENT}`)).toHaveLength(1));
    expect(api.callsTo(`PUT ${CLIENT}`)[0]!.body).toMatchObject({ defaultAcr: ACR.phishingResistant });
  });

  it('checks before sending and shows the server field errors under their entries', async () => {
    const { user, api } = renderSection({
      [`GET ${CLIENT}`]: () => reply(200, client),
      [`PUT ${CLIENT}`]: () =>
        reply(422, {
          fieldErrors: { clientId: ['unique'], 'redirectUris[0]': ['protocolRequired'] },
          globalErrors: [],
        }),
    });
    const s = await section();
    const id = await s.findByRole('textbox', { name: 'Client ID' });
    await user.clear(id);
    await user.click(s.getByRole('button', { name: 'Save Client' }));
    expect(await s.findByText('Client ID is required')).toBeInTheDocument();
    expect(api.callsTo(`PUT ${CLIENT}`)).toHaveLength(0);

    await user.type(id, 'taken');
    await user.click(s.getByRole('button', { name: 'Save Client' }));
    expect(await s.findByText('Client ID is already in use')).toBeInTheDocument();
    expect(s.getByText('Redirect URI 1 must have a valid protocol')).toBeInTheDocument();
    expect(s.getByText(SSO_CLIENT_MESSAGES.saveFailed)).toBeInTheDocument();
  });

  it('rotates the secret after confirmation and shows the new one once', async () => {
    const { user, api } = renderSection({
      [`GET ${CLIENT}`]: () => reply(200, client),
      [`POST ${CLIENT}/secret`]: () => reply(200, { ...client, clientSecret: SECRET }),
    });
    const s = await section();
    await user.click(await s.findByRole('button', { name: 'Rotate Secret' }));
    const confirm = await screen.findByRole('dialog', { name: 'Rotate client secret?' });
    expect(api.callsTo(`POST ${CLIENT}/secret`)).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Rotate Secret' }));
    const dialog = await screen.findByRole('dialog', { name: 'Client secret' });
    expect(within(dialog).getByRole('textbox', { name: 'Client secret of edc' })).toHaveValue(SECRET);
  });

  it('removes single sign-on after confirmation', async () => {
    const { user } = renderSection({
      [`GET ${CLIENT}`]: () => reply(200, client),
      [`DELETE ${CLIENT}`]: () => reply(200, {}),
    });
    const s = await section();
    await user.click(await s.findByRole('button', { name: 'Remove Single Sign-On' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove single sign-on?' });
    await user.click(within(confirm).getByRole('button', { name: 'Remove Single Sign-On' }));
    expect(await s.findByText(SSO_CLIENT_MESSAGES.notSetUp)).toBeInTheDocument();
  });

  it('shows a load failure with a retry, and the client read-only without ADMIN', async () => {
    renderSection({ [`GET ${CLIENT}`]: () => reply(500, { message: 'boom' }) });
    const s = await section();
    expect(await s.findByText(SSO_CLIENT_MESSAGES.load)).toBeInTheDocument();
    expect(s.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('shows its loading state, and warns that saving as public removes the secret', async () => {
    let answer: (r: Response) => void = () => {};
    const { user } = renderSection({ [`GET ${CLIENT}`]: () => new Promise<Response>((r) => (answer = r)) });
    const s = await section();
    expect(await s.findByText('Loading single sign-on')).toBeInTheDocument();
    answer(reply(200, client));
    await user.click(await s.findByRole('radio', { name: /^Public/ }));
    expect(s.getByText('Saving as public removes the client secret.')).toBeInTheDocument();
    expect(s.queryByRole('button', { name: 'Rotate Secret' })).toBeInTheDocument();
  });

  it('is read-only without ADMIN', async () => {
    renderSection({ [`GET ${CLIENT}`]: () => reply(200, client) }, ['READ_USERS']);
    const s = await section();
    expect(await s.findByRole('textbox', { name: 'Client ID' })).toHaveAttribute('readonly');
    expect(s.queryByRole('button')).not.toBeInTheDocument();
  });

  it('is not offered for the fixed system', async () => {
    mockApi({ [`GET ${SYSTEM}`]: () => reply(200, { ...system, fixed: true }) });
    renderRoute({
      path: '/app/configure/systems/:id',
      url: '/app/configure/systems/5',
      element: <SystemPage />,
      permissions: ['ADMIN'],
    });
    expect(await screen.findByRole('heading', { name: 'Edit System' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Single sign-on' })).not.toBeInTheDocument();
  });
});

/**
 * The 'Provisioning (SCIM)' section of a system's page (issue 41; Configure → Systems): its states, setting up a
 * connection with a bearer token that is sent once and never shown, a save that keeps the stored token, the
 * server's field errors under their fields, deletion on removal only after a confirmation, 'Test Connection'
 * and its result, removal after a confirmation, and the read-only view without ADMIN.
 */
import { PROVISIONING_MESSAGES as M } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { reply } from '../../testing/mockApi';
import { PROV, connection, renderProvisioning } from './provisioningFixtures';

const TOKEN = 'scim-bearer-token-0123456789abcdef';
const section = async () => within(await screen.findByRole('region', { name: 'Provisioning (SCIM)' }));

describe('provisioning section', () => {
  it('sets up a connection: the token is sent once, then leaves the field and is never shown', async () => {
    const { user, api } = renderProvisioning({
      [`GET ${PROV}`]: () => reply(200, null),
      [`PUT ${PROV}`]: () => reply(200, connection({ lastReconciliation: null })),
    });
    const s = await section();
    expect(await s.findByText(M.notSetUp)).toBeInTheDocument();
    await user.click(s.getByRole('button', { name: 'Set Up Provisioning' }));
    await user.type(s.getByRole('textbox', { name: 'SCIM base URL' }), 'https://lis.example.org/scim/v2');
    const token = s.getByLabelText('Bearer token');
    expect(token).toHaveAttribute('type', 'password');
    await user.type(token, TOKEN);
    await user.click(s.getByRole('radio', { name: /^Not sent/ }));
    await user.clear(s.getByRole('textbox', { name: /^Reconcile every/ }));
    await user.type(s.getByRole('textbox', { name: /^Reconcile every/ }), '60');
    await user.click(s.getByRole('button', { name: 'Set Up Provisioning' }));

    await waitFor(() => expect(api.callsTo(`PUT ${PROV}`)).toHaveLength(1));
    expect(api.callsTo(`PUT ${PROV}`)[0]!.body).toEqual({
      baseUrl: 'https://lis.example.org/scim/v2',
      token: TOKEN,
      enabled: true,
      accessAs: 'NONE',
      deleteOnRemoval: false,
      retryDays: 7,
      reconcileEveryMinutes: 60,
    });
    expect(await screen.findByText(M.saved)).toBeInTheDocument();
    expect(await s.findByRole('button', { name: 'Save Connection' })).toBeInTheDocument();
    expect(s.getByLabelText('Bearer token')).toHaveValue('');
    expect(s.getByText(new RegExp(M.tokenKept))).toBeInTheDocument();
    expect(screen.queryByDisplayValue(TOKEN)).not.toBeInTheDocument();
    expect(document.body.textContent).not.toContain(TOKEN);
  });

  it('saves with a blank token as null (keep the stored one); the stored token is never in the form', async () => {
    const { user, api } = renderProvisioning({
      [`GET ${PROV}`]: () => reply(200, connection()),
      [`PUT ${PROV}`]: () => reply(200, connection({ retryDays: 3 })),
    });
    const s = await section();
    expect(await s.findByLabelText('Bearer token')).toHaveValue('');
    expect(s.getByText(new RegExp(M.tokenKept))).toBeInTheDocument();
    const days = s.getByRole('textbox', { name: /^Retry a failing target/ });
    await user.clear(days);
    await user.type(days, '3');
    await user.click(s.getByRole('button', { name: 'Save Connection' }));
    await waitFor(() => expect(api.callsTo(`PUT ${PROV}`)).toHaveLength(1));
    expect(api.callsTo(`PUT ${PROV}`)[0]!.body).toMatchObject({ token: null, retryDays: 3 });
  });

  it('checks before sending and shows the server field errors under their fields', async () => {
    const { user, api } = renderProvisioning({
      [`GET ${PROV}`]: () => reply(200, connection()),
      [`PUT ${PROV}`]: () => reply(422, { fieldErrors: { baseUrl: ['protocolRequired'] }, globalErrors: [] }),
    });
    const s = await section();
    const url = await s.findByRole('textbox', { name: 'SCIM base URL' });
    await user.clear(url);
    const days = s.getByRole('textbox', { name: /^Retry a failing target/ });
    await user.clear(days);
    await user.click(s.getByRole('button', { name: 'Save Connection' }));
    expect(await s.findByText('SCIM base URL is required')).toBeInTheDocument();
    expect(s.getByText('Retry a failing target for (days) must be a whole number from 1 to 30')).toBeInTheDocument();
    expect(api.callsTo(`PUT ${PROV}`)).toHaveLength(0);

    await user.type(url, 'https://lis.example.org/scim/v2');
    await user.clear(days);
    await user.type(days, '7');
    await user.click(s.getByRole('button', { name: 'Save Connection' }));
    expect(await s.findByText('SCIM base URL must have a valid protocol')).toBeInTheDocument();
    expect(s.getByText(M.saveFailed)).toBeInTheDocument();
  });

  it('turns deletion on removal on only after a confirmation', async () => {
    const { user, api } = renderProvisioning({
      [`GET ${PROV}`]: () => reply(200, connection()),
      [`PUT ${PROV}`]: () => reply(200, connection({ deleteOnRemoval: true })),
    });
    const s = await section();
    const toggle = await s.findByRole('switch', { name: /^Delete the account on removal/ });
    await user.click(toggle);
    let dialog = await screen.findByRole('dialog', { name: 'Delete accounts on removal?' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep Deactivating' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(toggle).not.toBeChecked();

    await user.click(toggle);
    dialog = await screen.findByRole('dialog', { name: 'Delete accounts on removal?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete on Removal' }));
    await waitFor(() => expect(toggle).toBeChecked());
    await user.click(s.getByRole('button', { name: 'Save Connection' }));
    await waitFor(() => expect(api.callsTo(`PUT ${PROV}`)).toHaveLength(1));
    expect(api.callsTo(`PUT ${PROV}`)[0]!.body).toMatchObject({ deleteOnRemoval: true });
  });

  it('tests the connection and shows the result with its time; the account counts', async () => {
    const { user, api } = renderProvisioning({
      [`GET ${PROV}`]: () => reply(200, connection()),
      [`POST ${PROV}/test`]: () =>
        reply(200, { ok: false, message: M.testFailed('401 Unauthorized'), testedAt: '2026-11-26T04:05:00.000Z' }),
    });
    const s = await section();
    expect(await s.findByText('Not tested yet.')).toBeInTheDocument();
    expect(s.getByText('9 in sync')).toBeInTheDocument();
    expect(s.getByText('2 pending')).toBeInTheDocument();
    expect(s.getByText('1 with an error')).toBeInTheDocument();
    await user.click(s.getByRole('button', { name: 'Test Connection' }));
    expect(await s.findByText('Connection failed: 401 Unauthorized')).toBeInTheDocument();
    expect(s.getByText(/^Last test: 11\/26\/2026/)).toBeInTheDocument();
    expect(api.callsTo(`POST ${PROV}/test`)).toHaveLength(1);
  });

  it('shows a working connection from its last test', async () => {
    renderProvisioning({
      [`GET ${PROV}`]: () =>
        reply(200, connection({ lastTestAt: '2026-11-26T04:05:00.000Z', lastTestOk: true, lastTestMessage: M.testOk })),
    });
    const s = await section();
    expect(await s.findByText(M.testOk)).toBeInTheDocument();
  });

  it('removes provisioning after confirmation', async () => {
    const { user, api } = renderProvisioning({
      [`GET ${PROV}`]: () => reply(200, connection()),
      [`DELETE ${PROV}`]: () => reply(200, {}),
    });
    const s = await section();
    await user.click(await s.findByRole('button', { name: 'Remove Provisioning' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove provisioning?' });
    expect(api.callsTo(`DELETE ${PROV}`)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Remove Provisioning' }));
    expect(await s.findByText(M.notSetUp)).toBeInTheDocument();
  });

  it('shows its loading state, and a load failure with a retry', async () => {
    let answer: (r: Response) => void = () => {};
    renderProvisioning({ [`GET ${PROV}`]: () => new Promise<Response>((r) => (answer = r)) });
    const s = await section();
    expect(await s.findByText('Loading provisioning')).toBeInTheDocument();
    answer(reply(500, { message: 'boom' }));
    expect(await s.findByText(M.load)).toBeInTheDocument();
    expect(s.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('is read-only without ADMIN: no token field, no changes, no actions', async () => {
    renderProvisioning({ [`GET ${PROV}`]: () => reply(200, connection()) }, ['READ_USERS']);
    const s = await section();
    expect(await s.findByRole('textbox', { name: 'SCIM base URL' })).toHaveAttribute('readonly');
    expect(s.getByText('Bearer token: on record (never shown)')).toBeInTheDocument();
    expect(s.queryByLabelText('Bearer token')).not.toBeInTheDocument();
    for (const name of ['Save Connection', 'Test Connection', 'Reconcile Now', 'Remove Provisioning']) {
      expect(s.queryByRole('button', { name })).not.toBeInTheDocument();
    }
    expect(s.getByRole('button', { name: 'Show Report' })).toBeInTheDocument();
  });
});

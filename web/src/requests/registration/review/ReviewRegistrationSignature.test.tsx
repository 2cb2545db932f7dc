/**
 * Signing a registration's approval and denial (docs/decisions.md "Electronic signatures"): with signatures on,
 * 'Create User' asks for the signature and the approval carries its ticket, asked for with exactly the body
 * sent; 'Reject' asks its question with the signing fields.
 */
import { SIGNATURE_HEADER, SIGNATURE_TICKET_PATH } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { reply } from '../../../testing/mockApi';

import { APPROVE, DENY, registration, renderReview } from './reviewRegistrationFixtures';

const TICKET = `POST ${SIGNATURE_TICKET_PATH}`;
const SETTINGS = 'GET /rest/secure/portal_settings';
const signaturesOn = () =>
  reply(200, { proxyCommentMarkers: ['[Proxy request]'], signatures: { enabled: true, meanings: {} } });
const ticket = () => reply(200, { ticket: 'ticket-9', expiresAt: '2026-12-03T12:00:00Z' });

describe('Review Pending User, signed', () => {
  it('Create User asks for the signature; the approval is sent with the ticket for its own body', async () => {
    const { user, api } = renderReview({
      [SETTINGS]: signaturesOn,
      [TICKET]: ticket,
      [APPROVE]: () => reply(200, registration({ registrationStatus: 'APPROVED' })),
    });
    await waitFor(() => expect(api.callsTo(SETTINGS)).toHaveLength(1));
    await user.click(await screen.findByRole('checkbox', { name: /Network User/ }));
    await waitFor(() => expect(screen.getByTestId('ldap-search')).toHaveTextContent('3 matches'));
    await user.click(screen.getByRole('button', { name: 'Create User' }));

    const dialog = await screen.findByRole('dialog', { name: 'Electronic signature' });
    expect(within(dialog).getByRole('combobox', { name: /Meaning/ })).toHaveValue('Approved');
    await user.type(within(dialog).getByRole('textbox', { name: /Username/ }), 'rev');
    await user.type(within(dialog).getByLabelText(/Password/), 'secret{Enter}');

    await waitFor(() => expect(api.callsTo(APPROVE)).toHaveLength(1));
    const [approve] = api.callsTo(APPROVE);
    expect(approve!.headers[SIGNATURE_HEADER]).toBe('ticket-9');
    expect(api.callsTo(TICKET)[0]!.body).toMatchObject({
      action: 'REQUEST_APPROVAL',
      meaning: 'Approved',
      decision: { method: 'PUT', path: '/rest/secure/user_registration_action/approve', body: approve!.body },
    });
    expect(await screen.findByText(/Queue:/)).toBeInTheDocument();
  });

  it("Reject keeps its question and adds the signing fields; the denial is signed 'Rejected'", async () => {
    const { user, api } = renderReview({
      [SETTINGS]: signaturesOn,
      [TICKET]: ticket,
      [DENY]: () => reply(200, registration({ registrationStatus: 'DENIED' })),
    });
    await waitFor(() => expect(api.callsTo(SETTINGS)).toHaveLength(1));
    await user.click(await screen.findByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject Registration?' });
    expect(dialog).toHaveTextContent('Are you sure you want to reject the registration of Ada Lovelace?');
    await user.type(within(dialog).getByRole('textbox', { name: /Username/ }), 'rev');
    await user.type(within(dialog).getByLabelText(/Password/), 'secret');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(api.callsTo(DENY)).toHaveLength(1));
    expect(api.callsTo(DENY)[0]!.headers[SIGNATURE_HEADER]).toBe('ticket-9');
    expect(api.callsTo(TICKET)[0]!.body).toMatchObject({ action: 'REQUEST_REJECTION', meaning: 'Rejected' });
  });
});

/**
 * Signing a request's review save (docs/decisions.md "Electronic signatures"; 21 CFR Part 11 §11.50,
 * §11.200), through the access change review: off, the spec's confirmation as it is; on, the same confirmation
 * with the signing fields, the ticket asked for with exactly the body then sent and the ticket in its header;
 * a wrong password keeps the dialog with its text and sends nothing else; a save refused SIGNATURE_REQUIRED
 * asks for the signature and sends again signed; SIGNATURE_INVALID says so in the dialog.
 */
import {
  GLOBAL_ERRORS,
  SIGNATURE_ERRORS,
  SIGNATURE_HEADER,
  SIGNATURE_TEXTS,
  SIGNATURE_TICKET_PATH,
} from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { reply, sequence } from '../../../testing/mockApi';

import { GET, SAVE, renderReview, request } from './reviewAccessChangeFixtures';

const TICKET = `POST ${SIGNATURE_TICKET_PATH}`;
const SETTINGS = 'GET /rest/secure/portal_settings';
const settings = (enabled: boolean) => () =>
  reply(200, { proxyCommentMarkers: ['[Proxy request]'], signatures: { enabled, meanings: {} } });
const ticket = () => reply(200, { ticket: 'ticket-1', expiresAt: '2026-12-03T12:00:00Z' });

async function chooseApproved(user: ReturnType<typeof renderReview>['user']) {
  await user.click(await screen.findByRole('combobox', { name: 'Request Status' }));
  await user.click(await screen.findByRole('option', { name: 'Approved', hidden: true }));
  await user.click(screen.getByRole('button', { name: 'Save Changes' }));
  return screen.findByRole('dialog', { name: 'Confirm Request Finalization/Closure' });
}

const QUESTION =
  'Saving with the status ‘Approved’ finalizes and closes this request. It cannot be changed afterwards. Do you want to continue?';

describe('signing a review save', () => {
  it("signatures off: the confirmation is the spec's, and the save is sent without a ticket", async () => {
    const { user, api, sent } = renderReview({
      [SETTINGS]: settings(false),
      [SAVE]: () => reply(200, request({ requestStatus: 'APPROVED' })),
    });
    await waitFor(() => expect(api.callsTo(SETTINGS)).toHaveLength(1));
    const dialog = await chooseApproved(user);
    expect(dialog).toHaveTextContent(QUESTION);
    expect(within(dialog).queryByLabelText(/Password/)).toBeNull();
    expect(dialog).not.toHaveTextContent(SIGNATURE_TEXTS.statement);
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(sent()).toHaveLength(1));
    expect(api.callsTo(TICKET)).toHaveLength(0);
    expect(api.callsTo(SAVE)[0]!.headers[SIGNATURE_HEADER]).toBeUndefined();
  });

  it('signatures on: the same confirmation with the signing fields; the ticket is for exactly the body sent', async () => {
    const { user, api, sent } = renderReview({
      [SETTINGS]: settings(true),
      [TICKET]: ticket,
      [SAVE]: () => reply(200, request({ requestStatus: 'APPROVED' })),
    });
    await waitFor(() => expect(api.callsTo(SETTINGS)).toHaveLength(1));
    const dialog = await chooseApproved(user);
    expect(dialog).toHaveTextContent(QUESTION);
    expect(dialog).toHaveTextContent(SIGNATURE_TEXTS.statement);
    expect(within(dialog).getByRole('group', { name: SIGNATURE_TEXTS.legend })).toBeInTheDocument();
    const meaning = within(dialog).getByRole('combobox', { name: /Meaning/ });
    expect(meaning).toHaveValue('Approved');
    await waitFor(() => expect(meaning).toHaveFocus());
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();

    await user.type(within(dialog).getByRole('textbox', { name: /Username/ }), 'rev');
    await user.type(within(dialog).getByLabelText(/Password/), 'secret{Enter}');

    await waitFor(() => expect(sent()).toHaveLength(1));
    const [ticketCall] = api.callsTo(TICKET);
    const [saveCall] = api.callsTo(SAVE);
    expect(ticketCall!.body).toEqual({
      action: 'REQUEST_APPROVAL',
      meaning: 'Approved',
      username: 'rev',
      password: 'secret',
      decision: {
        method: 'PUT',
        path: '/rest/secure/user_management/review_access_change_request',
        body: saveCall!.body,
      },
    });
    expect(saveCall!.headers[SIGNATURE_HEADER]).toBe('ticket-1');
    // The password travels in the ticket call only, never in the decision's body.
    expect(JSON.stringify(saveCall!.body)).not.toContain('secret');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('a wrong password: its text under the password field, nothing sent, the dialog stays', async () => {
    const { user, api, sent } = renderReview({
      [SETTINGS]: settings(true),
      [TICKET]: sequence(
        () => reply(422, { fieldErrors: { password: [SIGNATURE_TEXTS.passwordWrong] }, globalErrors: [] }),
        ticket,
      ),
      [SAVE]: () => reply(200, request({ requestStatus: 'APPROVED' })),
    });
    await waitFor(() => expect(api.callsTo(SETTINGS)).toHaveLength(1));
    const dialog = await chooseApproved(user);
    await user.type(within(dialog).getByRole('textbox', { name: /Username/ }), 'rev');
    const password = within(dialog).getByLabelText(/Password/);
    await user.type(password, 'wrong');
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));

    await waitFor(() => expect(password).toHaveAccessibleDescription(SIGNATURE_TEXTS.passwordWrong));
    expect(api.callsTo(TICKET)).toHaveLength(1);
    expect(sent()).toHaveLength(0);
    expect(screen.getByRole('dialog', { name: 'Confirm Request Finalization/Closure' })).toBeInTheDocument();
    expect(screen.queryByText(/could not be saved|failed/i)).toBeNull();

    await user.type(password, 'right');
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(sent()).toHaveLength(1));
    expect(api.callsTo(SAVE)[0]!.headers[SIGNATURE_HEADER]).toBe('ticket-1');
  });

  it('SIGNATURE_REQUIRED: the unsigned save refused, the signature asked for, the same save sent signed', async () => {
    const required = () =>
      reply(422, { fieldErrors: {}, globalErrors: [SIGNATURE_ERRORS.required], message: 'Signature required' });
    const { user, api, sent } = renderReview({
      // The settings could not be read: the screen starts as the spec's.
      [SETTINGS]: () => reply(500, { message: 'down' }),
      [TICKET]: ticket,
      [SAVE]: sequence(required, () => reply(200, request({ versionno: 4 }))),
    });
    await user.click(await screen.findByRole('button', { name: 'Apply Above Changes' }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    const dialog = await screen.findByRole('dialog', { name: SIGNATURE_TEXTS.legend });
    expect(dialog).toHaveTextContent(SIGNATURE_TEXTS.required);
    expect(within(dialog).getByRole('combobox', { name: /Meaning/ })).toHaveValue('Reviewed and applied');
    await user.type(within(dialog).getByRole('textbox', { name: /Username/ }), 'rev');
    await user.type(within(dialog).getByLabelText(/Password/), 'secret');
    await user.click(within(dialog).getByRole('button', { name: 'Sign' }));

    await waitFor(() => expect(sent()).toHaveLength(2));
    const [, signed] = api.callsTo(SAVE);
    expect(signed!.headers[SIGNATURE_HEADER]).toBe('ticket-1');
    expect(api.callsTo(TICKET)[0]!.body).toMatchObject({
      action: 'REQUEST_SAVE',
      decision: { method: 'PUT', body: signed!.body },
    });
    expect(api.callsTo(SAVE)[0]!.headers[SIGNATURE_HEADER]).toBeUndefined();
    expect(sent()[1]!.userAccesses).toEqual(sent()[0]!.userAccesses);
  });

  it('SIGNATURE_INVALID: the dialog says the signature was not accepted and asks again', async () => {
    const { user, api } = renderReview({
      [SETTINGS]: settings(true),
      [TICKET]: ticket,
      [SAVE]: () => reply(422, { fieldErrors: {}, globalErrors: [SIGNATURE_ERRORS.invalid], message: 'Invalid' }),
    });
    await waitFor(() => expect(api.callsTo(SETTINGS)).toHaveLength(1));
    const dialog = await chooseApproved(user);
    await user.type(within(dialog).getByRole('textbox', { name: /Username/ }), 'rev');
    await user.type(within(dialog).getByLabelText(/Password/), 'secret');
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(await within(dialog).findByText(SIGNATURE_TEXTS.invalid)).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/Password/)).toHaveValue('');
    expect(screen.queryByText(GLOBAL_ERRORS.staleVersion)).toBeNull();
  });

  it('a resolved request shows its signatures on the review screen, a changed record as not matching', async () => {
    const signature = {
      id: 'sig-1',
      signerName: 'Rita Reviewer',
      signerUsername: 'rita',
      signedAt: '2026-12-03T10:15:00Z',
      meaning: 'Approved',
      method: 'PASSWORD',
      action: 'REQUEST_APPROVAL',
      valid: false,
    };
    renderReview({
      [GET]: () =>
        reply(200, { ...request({ requestStatus: 'APPROVED', allowedNextStatuses: [] }), signatures: [signature] }),
    });
    const list = await screen.findByRole('list', { name: SIGNATURE_TEXTS.legend });
    expect(list).toHaveTextContent(/Signed by Rita Reviewer \(rita\) on .* — Approved/);
    expect(list).toHaveTextContent(SIGNATURE_TEXTS.mismatch);
  });
});

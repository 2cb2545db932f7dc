/**
 * sendSigned (docs/decisions.md "Electronic signatures"): the ticket is asked for with the signed call's own
 * method, path and body, the call then carries it in SIGNATURE_HEADER; a refused credential sends nothing
 * else; calls that are not decisions (reads, the session's token calls) pass untouched.
 */
import { SIGNATURE_HEADER, SIGNATURE_TEXTS, SIGNATURE_TICKET_PATH } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { mockApi, reply } from '../testing/mockApi';
import { apiGet, apiPut } from './apiClient';
import { hasSignedThisSession, sendSigned, SignatureRefused } from './signature';

const TICKET = `POST ${SIGNATURE_TICKET_PATH}`;
const STATUS = 'PUT /rest/secure/user_management/deactivate_user/7';
const credentials = { action: 'USER_STATUS', meaning: 'Approved', username: 'admin', password: 'secret' } as const;

describe('sendSigned', () => {
  it("asks for the ticket with the call's own body and sends the call with it; reads pass untouched", async () => {
    const api = mockApi({
      [TICKET]: () => reply(200, { ticket: 'ticket-1', expiresAt: '2026-12-03T12:00:00Z' }),
      'GET /rest/secure/user_management/user/7': () => reply(200, { id: 7 }),
      [STATUS]: () => reply(200, { id: 7, inactive: true }),
    });
    const body = { reason: 'left the network' };
    await sendSigned(credentials, async () => {
      await apiGet('/rest/secure/user_management/user/7');
      return apiPut('/rest/secure/user_management/deactivate_user/7', body);
    });
    expect(api.callsTo(TICKET)[0]!.body).toEqual({
      ...credentials,
      decision: { method: 'PUT', path: '/rest/secure/user_management/deactivate_user/7', body },
    });
    expect(api.callsTo(STATUS)[0]!.headers[SIGNATURE_HEADER]).toBe('ticket-1');
    expect(api.callsTo(STATUS)[0]!.body).toEqual(body);
    expect(api.callsTo('GET /rest/secure/user_management/user/7')[0]!.headers[SIGNATURE_HEADER]).toBeUndefined();
    expect(hasSignedThisSession()).toBe(true);

    // Once the signed call is made, later calls are not signed.
    await apiPut('/rest/secure/user_management/deactivate_user/7', body);
    expect(api.callsTo(STATUS)[1]!.headers[SIGNATURE_HEADER]).toBeUndefined();
    expect(api.callsTo(TICKET)).toHaveLength(1);
  });

  it('a wrong password rejects with SignatureRefused and the decision is not sent', async () => {
    const api = mockApi({
      [TICKET]: () => reply(422, { fieldErrors: { password: [SIGNATURE_TEXTS.passwordWrong] }, globalErrors: [] }),
      [STATUS]: () => reply(200, {}),
    });
    const sent = sendSigned(credentials, () => apiPut('/rest/secure/user_management/deactivate_user/7', {}));
    await expect(sent).rejects.toBeInstanceOf(SignatureRefused);
    await sent.catch((e: SignatureRefused) =>
      expect(e.cause.fieldErrors.password).toEqual([SIGNATURE_TEXTS.passwordWrong]),
    );
    expect(api.callsTo(STATUS)).toHaveLength(0);
    expect(hasSignedThisSession()).toBe(false);
  });
});

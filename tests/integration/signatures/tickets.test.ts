/**
 * Signature tickets (docs/decisions.md "Electronic signatures"; 21 CFR Part 11 §11.200(a)(1)) through the real
 * routes on the test stack: refused while signatures are off; with them on, the session's first signature needs
 * the username, a wrong password is refused with its text, stores no ticket and counts toward the lockout, a
 * meaning outside the configured list is refused; an accepted ticket is stored as its hash only. A passkey
 * signs through a challenge bound to the decision and meaning: its assertion gets a PASSKEY ticket for that
 * decision and is refused for any other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNATURE_TEXTS as T, SIGNATURE_PASSKEY_OPTIONS_PATH, SIGNATURE_TICKET_PATH } from '@portal/contract';
import { decisionDigest, ticketHash } from '@portal/db';
import { createTestUser } from '../auth-helpers';
import { type TestApi, startApi } from '../harness';
import { authenticator, call, enrolPasskey, passkeyEnv, passwordSignIn } from '../passkeys/helpers';

let on: TestApi;
let off: TestApi;

beforeAll(async () => {
  [on, off] = await Promise.all([startApi(passkeyEnv({ SIGNATURES: 'on' })), startApi(passkeyEnv())]);
});
afterAll(async () => {
  await Promise.all([on?.close(), off?.close()]);
});

const decision = {
  method: 'PUT' as const,
  path: '/rest/secure/user_management/review_access_change_request',
  body: { a: 1 },
};

describe('a signature ticket', () => {
  it('is refused while signatures are off', async () => {
    const user = await createTestUser(off, 'sigoff');
    const s = await passwordSignIn(off, user);
    const res = await call(off, s, 'POST', SIGNATURE_TICKET_PATH, {
      action: 'REQUEST_APPROVAL',
      meaning: 'Approved',
      username: user.username,
      password: user.password,
      decision,
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().globalErrors).toEqual([T.off]);
  });

  it('asks the username at the first signature, refuses a wrong password or meaning, then stores only its hash', async () => {
    const user = await createTestUser(on, 'sigpw');
    const s = await passwordSignIn(on, user);
    const ask = (body: object) =>
      call(on, s, 'POST', SIGNATURE_TICKET_PATH, {
        action: 'REQUEST_APPROVAL',
        meaning: 'Approved',
        decision,
        ...body,
      });

    const noName = await ask({ password: user.password });
    expect(noName.statusCode, noName.body).toBe(422);
    expect(noName.json().fieldErrors).toEqual({ username: [T.usernameRequired] });
    const otherName = await ask({ username: 'somebody-else', password: user.password });
    expect(otherName.json().fieldErrors).toEqual({ username: [T.usernameWrong] });

    const wrong = await ask({ username: user.username, password: 'Not-The-Password-1!' });
    expect(wrong.statusCode, wrong.body).toBe(422);
    expect(wrong.json().fieldErrors).toEqual({ password: [T.passwordWrong] });
    expect(await on.prisma.signatureTicket.count({ where: { signerUserId: user.user.id } })).toBe(0);
    // The wrong password was a failed bind: the sign-in now counts one attempt fewer before the lockout.
    const signIn = await on.app.inject({
      method: 'POST',
      url: '/rest/token/create',
      payload: { username: user.username, password: 'Not-The-Password-2!' },
    });
    const fresh = await createTestUser(on, 'sigpwref');
    const reference = await on.app.inject({
      method: 'POST',
      url: '/rest/token/create',
      payload: { username: fresh.username, password: 'Not-The-Password-2!' },
    });
    expect(signIn.json().attemptsLeftUntilLocked).toBe(reference.json().attemptsLeftUntilLocked - 1);

    const badMeaning = await ask({ username: user.username, password: user.password, meaning: 'Because' });
    expect(badMeaning.json().fieldErrors).toEqual({ meaning: [T.meaningInvalid] });

    const ok = await ask({ username: user.username.toUpperCase(), password: user.password });
    expect(ok.statusCode, ok.body).toBe(200);
    const { ticket } = ok.json() as { ticket: string };
    const stored = await on.prisma.signatureTicket.findMany({ where: { signerUserId: user.user.id } });
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      tokenHash: ticketHash(ticket),
      action: 'REQUEST_APPROVAL',
      meaning: 'Approved',
      method: 'PASSWORD',
      decisionDigest: decisionDigest('REQUEST_APPROVAL', decision),
      usedAt: null,
    });
    expect(JSON.stringify(stored)).not.toContain(ticket);
  });

  it('is made with a passkey whose challenge is bound to the decision, and for no other decision', async () => {
    const user = await createTestUser(on, 'sigpk');
    const key = authenticator();
    const { session } = await enrolPasskey(on, user, key);
    const options = async (d: object) => {
      const res = await call(on, session, 'POST', SIGNATURE_PASSKEY_OPTIONS_PATH, {
        action: 'REQUEST_APPROVAL',
        meaning: 'Approved',
        decision: d,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().options as { challenge: string; allowCredentials: Array<{ id: string }> };
    };
    const ticketWith = (assertion: object, d: object) =>
      call(on, session, 'POST', SIGNATURE_TICKET_PATH, {
        action: 'REQUEST_APPROVAL',
        meaning: 'Approved',
        assertion,
        decision: d,
      });

    const forOther = key.assert(await options(decision));
    const refused = await ticketWith(forOther, { ...decision, body: { a: 2 } });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().fieldErrors).toEqual({ assertion: [T.passkeyRefused] });

    const signed = await ticketWith(key.assert(await options(decision)), decision);
    expect(signed.statusCode, signed.body).toBe(200);
    const row = await on.prisma.signatureTicket.findUniqueOrThrow({
      where: { tokenHash: ticketHash(signed.json().ticket) },
    });
    expect(row.method).toBe('PASSKEY');
  });

  it('offers no passkey challenge to a person without a passkey', async () => {
    const user = await createTestUser(on, 'signopk');
    const s = await passwordSignIn(on, user);
    const res = await call(on, s, 'POST', SIGNATURE_PASSKEY_OPTIONS_PATH, {
      action: 'REQUEST_APPROVAL',
      meaning: 'Approved',
      decision,
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().fieldErrors).toEqual({ assertion: [T.noPasskey] });
  });
});

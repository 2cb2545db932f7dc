/**
 * Signature tickets (docs/decisions.md "Electronic signatures"; 21 CFR Part 11 §11.200(a)(1)): the signer
 * re-enters the password (and, for the first signature of the session, the username), names the decision about
 * to be sent and its meaning, and gets a one-use ticket bound to the decision's digest for
 * SIGNATURE_TICKET_SECONDS. A wrong password is refused (422), counts toward the account's lockout (it is a
 * bind as the person, as every password check is) and writes nothing. Only the ticket's hash is stored.
 */
import crypto from 'node:crypto';
import {
  SIGNATURE_TEXTS as T,
  type SignatureAction,
  type SignatureTicket,
  type SignaturePasskeyOptionsBody,
  type SignatureTicketBody,
} from '@portal/contract';
import { canonicalDigest, decisionDigest, ticketHash } from '@portal/db';
import { assertionOptions, relyingPartyOf, verifyAssertion } from '../../auth/webauthn';
import type { AuthContext } from '../../auth/guard';
import { digest as sessionIdOf } from '../../auth/session';
import type { Deps } from '../../deps';
import { unprocessable } from '../../http/errors';
import { requirePassword } from '../../auth/password-again';

/** @throws HttpError 422 (globalErrors) when signatures are off on this portal. */
export function requireSignaturesOn(deps: Deps): void {
  if (deps.cfg.SIGNATURES !== 'on') throw unprocessable({}, [T.off]);
}

/** @throws HttpError 422 `meaning` when the meaning is not one configured for the action. */
export function requireMeaning(deps: Deps, action: SignatureAction, meaning: string): void {
  if (!(deps.cfg.SIGNATURE_MEANINGS[action] ?? []).includes(meaning)) {
    throw unprocessable({ meaning: [T.meaningInvalid] });
  }
}

/** Whether this session has signed before (a ticket of it was used): then the username is not asked again. */
async function signedBefore(deps: Deps, sessionId: string): Promise<boolean> {
  return (await deps.prisma.signatureTicket.count({ where: { sessionId, usedAt: { not: null } } })) > 0;
}

/**
 * Checks the username of a session's first signature: the signer's own username or email, compared as the
 * sign-in compares them. @throws HttpError 422 `username`.
 */
async function requireUsername(deps: Deps, auth: AuthContext, sessionId: string, username?: string): Promise<void> {
  if (await signedBefore(deps, sessionId)) return;
  if (!username) throw unprocessable({ username: [T.usernameRequired] });
  const typed = username.trim().toLowerCase();
  if (typed !== auth.username.toLowerCase() && typed !== auth.email.toLowerCase()) {
    throw unprocessable({ username: [T.usernameWrong] });
  }
}

/**
 * Issues a ticket for `body.decision` after checking the meaning, the username (first signature) and the
 * password, or the passkey's assertion answering `passkeySignatureOptions`' challenge for the same decision and
 * meaning. @returns the ticket (shown to the browser once) and its expiry. @throws HttpError 422 (off, meaning,
 * username, password), 503 (the directory cannot answer).
 */
export async function issueTicket(deps: Deps, auth: AuthContext, body: SignatureTicketBody): Promise<SignatureTicket> {
  requireSignaturesOn(deps);
  requireMeaning(deps, body.action, body.meaning);
  const sessionId = sessionIdOf(auth.sessionToken);
  if (body.assertion) {
    // The passkey names its person and proves user verification: no username asked (decisions.md).
    const accepted = await verifyAssertion(
      deps.prisma,
      relyingPartyOf(deps.cfg),
      body.assertion,
      'SIGNATURE',
      { userId: auth.userId, sessionToken: auth.sessionToken },
      boundTo(body),
    );
    if (!accepted) throw unprocessable({ assertion: [T.passkeyRefused] });
    return storeTicket(deps, auth, sessionId, body, 'PASSKEY');
  }
  await requireUsername(deps, auth, sessionId, body.username);
  if (body.password === undefined) throw unprocessable({ password: ['required'] });
  try {
    await requirePassword(deps, auth, body.password);
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 422) throw unprocessable({ password: [T.passwordWrong] });
    throw err;
  }
  return storeTicket(deps, auth, sessionId, body, 'PASSWORD');
}

/** The 32 bytes a signature's passkey challenge ends with: the SHA-256 of the action, meaning and decision. */
const boundTo = (body: SignaturePasskeyOptionsBody): Buffer =>
  Buffer.from(canonicalDigest({ meaning: body.meaning, decision: decisionDigest(body.action, body.decision) }), 'hex');

/**
 * The WebAuthn request options of a passkey signature: the person's confirmed credentials, user verification
 * required, a challenge of this session ending with the SHA-256 of the decision and meaning (§11.70: the
 * assertion cannot be used for anything else). @throws HttpError 422 (off, meaning; no passkey: `assertion`).
 */
export async function passkeySignatureOptions(
  deps: Deps,
  auth: AuthContext,
  body: SignaturePasskeyOptionsBody,
): Promise<{ options: Record<string, unknown> & { challenge: string } }> {
  requireSignaturesOn(deps);
  requireMeaning(deps, body.action, body.meaning);
  const has = await deps.prisma.webAuthnCredential.count({
    where: { factor: { portalUserId: auth.userId, confirmedAt: { not: null } } },
  });
  if (has === 0) throw unprocessable({ assertion: [T.noPasskey] });
  const options = await assertionOptions(
    deps.prisma,
    relyingPartyOf(deps.cfg),
    'SIGNATURE',
    { userId: auth.userId, sessionToken: auth.sessionToken },
    boundTo(body),
  );
  return { options };
}

/** Stores a ticket for `body.decision` signed by `method`. @returns the ticket and its expiry. */
export async function storeTicket(
  deps: Deps,
  auth: AuthContext,
  sessionId: string,
  body: Pick<SignatureTicketBody, 'action' | 'meaning' | 'decision'>,
  method: 'PASSWORD' | 'PASSKEY',
): Promise<SignatureTicket> {
  const ticket = crypto.randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + deps.cfg.SIGNATURE_TICKET_SECONDS * 1000);
  await deps.prisma.signatureTicket.create({
    data: {
      tokenHash: ticketHash(ticket),
      sessionId,
      signerUserId: auth.userId,
      action: body.action,
      meaning: body.meaning,
      method,
      decisionDigest: decisionDigest(body.action, body.decision),
      expiresAt,
    },
  });
  return { ticket, expiresAt: expiresAt.toISOString() };
}

/**
 * A passkey as the whole sign-in (docs/decisions.md "Passkeys"): a discoverable credential answers a challenge
 * issued to no one (no username typed); the passkey's user verification (PIN, fingerprint) is the second
 * factor, so no second step follows. The directory still decides as for the password (sign-in.ts, 000 §4):
 * a locked entry is `accountLocked`, an inactive portal user `accountDisabled`, and a password that must be
 * changed (expired, or reset by an administrator) is refused with `usePasswordForm`: 000 §3's change needs
 * the current password, which only the password form asks for. The warning of a password expiring soon is
 * kept. A refused assertion is `credentialsInvalid`, never counted toward a lockout (the credential id is no
 * secret: anyone could lock a person out); the routes' rate limit bounds the tries.
 */
import { PASSKEY_TEXTS, type PasskeyAssertion } from '@portal/contract';
import { findPerson, passwordStatus, readPolicy } from '@portal/directory';
import { relyingPartyOf, verifyAssertion } from '../../auth/webauthn';
import type { Deps } from '../../deps';
import { type SignInResult, failureMessage } from './sign-in';

export type PasskeySignInResult =
  (Extract<SignInResult, { ok: true }> & { amr: 'hwk' | 'swk' }) | Extract<SignInResult, { ok: false }>;

const fail = (body: Extract<SignInResult, { ok: false }>['body'], status: 401 | 503 = 401): PasskeySignInResult => ({
  ok: false,
  status,
  body: { ...body, message: body.usePasswordForm ? PASSKEY_TEXTS.usePasswordForm : failureMessage(body) },
});

/**
 * Signs a person in with a passkey's `assertion` of a SIGN_IN challenge.
 * @returns the portal user and the passkey's RFC 8176 method, or 000 §3's refusal (503 when the directory or
 * the database cannot answer).
 */
export async function passkeySignIn(deps: Deps, assertion: PasskeyAssertion): Promise<PasskeySignInResult> {
  try {
    const accepted = await verifyAssertion(deps.prisma, relyingPartyOf(deps.cfg), assertion, 'SIGN_IN', null);
    if (!accepted) return fail({ credentialsInvalid: true });
    const user = await deps.prisma.portalUser.findUnique({ where: { id: accepted.userId } });
    if (!user) return fail({ credentialsInvalid: true });
    const [person, policy] = await Promise.all([findPerson(deps.directory, user.username), readPolicy(deps.directory)]);
    if (!person) return fail({ unspecifiedFailure: true });
    if (person.lockedTime) return fail({ accountLocked: true });
    if (user.inactive) return fail({ accountDisabled: true });
    const status = passwordStatus(person, policy);
    if (status.forceChange)
      return fail({ ...(status.expired ? { passwordExpired: true } : {}), usePasswordForm: true });
    return {
      ok: true,
      portalUserId: user.id,
      amr: accepted.amr,
      ...(status.warn ? { expiryState: 'WarnUserToChangePassword' as const } : {}),
    };
  } catch {
    return fail({ unspecifiedFailure: true }, 503);
  }
}

/**
 * Adding a passkey or security key to the signed-in person's second factors (docs/decisions.md "Passkeys"),
 * under the rules of the authenticator app's enrolment (enrolment.ts): the password again before the options
 * are issued; the browser's new credential answers their challenge (auth/webauthn.ts verifies it); a person's
 * FIRST factor then waits for the link mailed to them, a further one signs in at once (with recovery codes
 * when none are left). One authenticator registers once, for anyone. Removal is the factors' own
 * (enrolment.ts removeFactor).
 */
import { type ConfirmTotpAnswer, PASSKEY_TEXTS, type PasskeyRegistration } from '@portal/contract';
import { Prisma } from '@portal/db';
import type { AuthContext } from '../../auth/guard';
import { type WebAuthnOptionsJSON, registrationOptions, relyingPartyOf, verifyRegistration } from '../../auth/webauthn';
import type { Deps } from '../../deps';
import { unprocessable } from '../../http/errors';
import { requirePassword } from '../../auth/password-again';
import { activated, activeCount, awaitMailedLink } from './enrolment';

/**
 * The options of a new passkey named `label`, after the password. @throws HttpError 422 `password` when it is
 * wrong, 503 when the directory cannot answer.
 */
export async function beginPasskey(
  deps: Deps,
  auth: AuthContext,
  body: { password: string; label: string },
): Promise<WebAuthnOptionsJSON> {
  await requirePassword(deps, auth, body.password);
  return registrationOptions(
    deps.prisma,
    relyingPartyOf(deps.cfg),
    { id: auth.userId, username: auth.username, displayName: `${auth.firstName} ${auth.lastName}`.trim() },
    auth.sessionToken,
    body.label,
  );
}

/** Whether `err` is PostgreSQL's unique violation (the credential id is registered already). */
const isDuplicate = (err: unknown): boolean =>
  err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002';

/**
 * Stores the browser's new credential answering this session's challenge. A first factor: AWAITING_EMAIL
 * (the link is mailed); a further one: ACTIVE, with recovery codes when none were left.
 * @throws HttpError 422 (globalErrors) when it is refused or registered already, 503 when the mail fails.
 */
export async function addPasskey(
  deps: Deps,
  auth: AuthContext,
  credential: PasskeyRegistration,
): Promise<ConfirmTotpAnswer> {
  const verified = await verifyRegistration(deps.prisma, relyingPartyOf(deps.cfg), credential, auth.sessionToken);
  if (!verified) throw unprocessable({}, [PASSKEY_TEXTS.refused]);
  const first = (await activeCount(deps, auth.userId)) === 0;
  let factorId: number;
  try {
    factorId = await deps.prisma.$transaction(async (tx) => {
      // As an app's enrolment: the person's earlier pending passkey (one waiting for its link) is replaced.
      await tx.secondFactor.deleteMany({ where: { portalUserId: auth.userId, kind: 'WEBAUTHN', confirmedAt: null } });
      const now = new Date();
      const factor = await tx.secondFactor.create({
        data: {
          portalUserId: auth.userId,
          kind: 'WEBAUTHN',
          label: verified.label,
          provenAt: now,
          confirmedAt: first ? null : now,
          webauthn: {
            create: {
              credentialId: verified.credentialId,
              publicKey: verified.publicKey,
              counter: BigInt(verified.counter),
              transports: verified.transports,
              aaguid: verified.aaguid,
              backupEligible: verified.backupEligible,
              backedUp: verified.backedUp,
            },
          },
        },
      });
      return factor.id;
    });
  } catch (err) {
    if (isDuplicate(err)) throw unprocessable({}, [PASSKEY_TEXTS.taken]);
    throw err;
  }
  if (!first) return { state: 'ACTIVE', recoveryCodes: await activated(deps, auth, factorId) };
  await awaitMailedLink(deps, auth, factorId);
  return { state: 'AWAITING_EMAIL' };
}

/**
 * An authenticator app's codes for the tests (RFC 6238, 30-second steps, one step of drift accepted), chosen
 * so no test races the clock: a code of the step before is refused once its step leaves the drift window,
 * which a slow call crossing a step boundary made happen. `currentCode` is accepted for at least 30 s after
 * it is computed, `nextStepCode` (a later step than any current code before it) too.
 */
import type { PrismaClient } from '@portal/db';
import { beginTotp, totpCode } from '../../api/src/auth/totp';

/** The code of the current step. */
export const currentCode = (secret: string): Promise<string> => totpCode(secret);

/** The code of the next step: later than a current code already taken (the drift accepts it). */
export const nextStepCode = (secret: string): Promise<string> => totpCode(secret, Math.floor(Date.now() / 1000) + 30);

/**
 * A confirmed authenticator app of `user` enrolled through the real store (secret sealed under `key`) with
 * no code used yet, as the demo seed enrols one: the next sign-in takes the current code.
 * @returns the enrolment (its secret).
 */
export async function enrolConfirmed(
  prisma: PrismaClient,
  key: string,
  user: { id: number; username: string },
  label = 'Phone',
): Promise<{ factorId: number; secret: string }> {
  const enrolment = await beginTotp(prisma, key, user, { label, issuer: 'Portal Gateway' });
  await prisma.secondFactor.update({
    where: { id: enrolment.factorId },
    data: { provenAt: new Date(), confirmedAt: new Date() },
  });
  return { factorId: enrolment.factorId, secret: enrolment.secret };
}

/**
 * Sign-in against the directory (000 §4 Sign-in, §3 Sign-in response, §8 Sign-in): the portal binds as the
 * person; ppolicy's lockout state gives accountLocked and attemptsLeftUntilLocked; an inactive portal user
 * is accountDisabled. The password is checked before the account's state is revealed.
 */
import type { TokenCreateResponse } from '@portal/contract';
import { CONSTANTS, MESSAGES } from '@portal/contract';
import { bindAsUser, findPerson, readMaxFailures } from '@portal/directory';
import type { Deps } from '../deps';

export type SignInResult =
  { ok: true; portalUserId: number } | { ok: false; status: 401 | 503; body: TokenCreateResponse };

/** Adds the 000 §8 message to a failure body (the lockout warning when fewer than 3 attempts are left). */
function withMessage(body: TokenCreateResponse): TokenCreateResponse {
  const m = MESSAGES.signIn;
  let message: string = m.unspecifiedFailure;
  if (body.accountLocked) message = m.accountLocked;
  else if (body.accountDisabled) message = m.accountDisabled;
  else if (body.passwordExpired) message = m.passwordExpired;
  else if (body.credentialsInvalid) {
    const left = body.attemptsLeftUntilLocked;
    message =
      left !== undefined && left < CONSTANTS.lockoutWarningThreshold
        ? `${m.credentialsInvalid} ${m.lockoutWarning(left)}`
        : m.credentialsInvalid;
  }
  return { ...body, message };
}

const fail = (body: TokenCreateResponse, status: 401 | 503 = 401): SignInResult => ({
  ok: false,
  status,
  body: withMessage(body),
});

export async function signIn(deps: Deps, login: string, password: string): Promise<SignInResult> {
  try {
    const person = await findPerson(deps.directory, login);
    if (!person) return fail({ credentialsInvalid: true });
    if (person.lockedTime) return fail({ accountLocked: true });
    const bound = await bindAsUser(deps.directory, person.dn, password);
    if (!bound.ok) {
      const after = await findPerson(deps.directory, login);
      if (after?.lockedTime) return fail({ accountLocked: true });
      const max = await readMaxFailures(deps.directory);
      return fail(
        max > 0 && after
          ? { credentialsInvalid: true, attemptsLeftUntilLocked: Math.max(0, max - after.failureCount) }
          : { credentialsInvalid: true },
      );
    }
    const user = await deps.prisma.portalUser.findFirst({
      where: { OR: [{ uuid: person.uuid }, { username: person.username }] },
    });
    if (!user) return fail({ unspecifiedFailure: true });
    if (user.inactive) return fail({ accountDisabled: true });
    return { ok: true, portalUserId: user.id };
  } catch {
    return fail({ unspecifiedFailure: true }, 503);
  }
}

import { CONSTANTS, MESSAGES, type TokenCreateResponse } from '@portal/contract';

/** The sign-in error box text chosen from the failure flags (000 §8 Sign-in). */
export function signInFailureText(body: Partial<TokenCreateResponse> | undefined): string {
  const m = MESSAGES.signIn;
  if (!body) return m.unspecifiedFailure;
  if (body.credentialsInvalid) {
    const left = body.attemptsLeftUntilLocked;
    return typeof left === 'number' && Number.isInteger(left) && left < CONSTANTS.lockoutWarningThreshold
      ? `${m.credentialsInvalid} ${m.lockoutWarning(left)}`
      : m.credentialsInvalid;
  }
  if (body.accountLocked) return m.accountLocked;
  if (body.accountDisabled) return m.accountDisabled;
  if (body.passwordExpired) return m.passwordExpired;
  return m.unspecifiedFailure;
}

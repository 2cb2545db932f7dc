/**
 * The signed-in user's own password change (000 §2 Change Password screen, §4 After a password change, §7
 * POST /rest/secure/change_password/attempt, §8 Passwords). The portal checks its rules first; then it binds
 * as the user and writes the new password, so slapd's ppolicy enforces history, minimum age and quality.
 */
import { AUTH_MESSAGES, type ChangePasswordBody, MESSAGES } from '@portal/contract';
import { changeOwnPassword, findPerson, passwordStatus, type PasswordPolicy } from '@portal/directory';
import type { AuthContext } from '../../auth/guard';
import { afterOwnPasswordChange } from '../../auth/session';
import type { Deps } from '../../deps';
import { forbidden, HttpError, unavailable } from '../../http/errors';
import { passwordCapabilities } from './account';
import { auditPassword } from './audit';
import { brokenRules, ruleText } from './rules';

/** 422 with the spec's shape plus failureDescription (000 §3 Change-password response). */
function refused(fieldErrors: Record<string, string[]>, failureDescription?: string): HttpError {
  return new HttpError(422, { fieldErrors, globalErrors: [], ...(failureDescription ? { failureDescription } : {}) });
}

/** Why the bind with the current password failed: locked, expired beyond grace, or simply wrong. */
async function wrongCurrent(deps: Deps, username: string, policy: PasswordPolicy): Promise<HttpError> {
  const after = await findPerson(deps.directory, username);
  if (after?.lockedTime) return refused({}, MESSAGES.signIn.accountLocked);
  if (after && passwordStatus(after, policy).expired && after.graceUses >= policy.graceAuthNLimit) {
    return refused({}, MESSAGES.signIn.passwordExpired);
  }
  return refused({ currentPassword: ['invalid'] });
}

/**
 * Changes the password of the signed-in user.
 * @throws HttpError 403 when the portal does not manage the user's password, 422 with fieldErrors
 *   (currentPassword, newPassword) or a failureDescription (minimum age, lockout), 503 when the directory fails.
 */
export async function changeOwn(deps: Deps, auth: AuthContext, body: ChangePasswordBody): Promise<void> {
  const user = await deps.prisma.portalUser.findUniqueOrThrow({ where: { id: auth.userId } });
  let caps;
  try {
    caps = await passwordCapabilities(deps, user);
  } catch {
    throw unavailable(AUTH_MESSAGES.changeFailed);
  }
  const { person, policy } = caps;
  if (!caps.ever || !person) throw forbidden();

  const broken = brokenRules(policy, body.newPassword, user.username);
  if (body.newPassword === body.currentPassword && policy.inHistory > 0) broken.push(ruleText(policy, 'history'));
  if (broken.length) throw refused({ newPassword: broken });
  if (caps.restricted) throw refused({}, ruleText(policy, 'minAge'));

  let outcome;
  try {
    outcome = await changeOwnPassword(deps.directory, person.dn, body.currentPassword, body.newPassword);
  } catch {
    throw unavailable(AUTH_MESSAGES.changeFailed);
  }
  if (!outcome.ok) {
    switch (outcome.reason) {
      case 'invalidCredentials':
        throw await wrongCurrent(deps, person.username, policy);
      case 'tooYoung':
        throw refused({}, ruleText(policy, 'minAge'));
      case 'inHistory':
        throw refused({ newPassword: [ruleText(policy, 'history')] });
      case 'quality':
        throw refused({ newPassword: [ruleText(policy, 'minLength')] });
      case 'notAllowed':
        throw forbidden();
    }
  }
  await afterOwnPasswordChange(deps.prisma, auth.sessionToken, auth.userId);
  await auditPassword(deps, auth, auth.userId, 'PASSWORD_CHANGED', { forced: auth.passwordChangeRequired });
}

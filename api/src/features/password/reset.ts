/**
 * Forgot Password and the emailed links (000 §2 Forgot / Set Password screens, §5 Reset, §7
 * forgot_password, set_initial_password, reset_password, set_initial_password/resend; §8 Passwords).
 * Forgot Password answers the same for known and unknown addresses; the work (link + mail) happens after
 * the answer, so neither the body nor the timing tells whether an account exists.
 */
import type { FastifyBaseLogger } from 'fastify';
import { AUTH_MESSAGES, type PasswordSetBody } from '@portal/contract';
import { type PortalUser, revokeSsoAccess } from '@portal/db';
import { adminSetPassword, isRecentPassword } from '@portal/directory';
import { invalidateUserSessions } from '../../auth/session';
import type { Deps } from '../../deps';
import { HttpError, unavailable } from '../../http/errors';
import { sendPasswordLinkMail } from './mail';
import { hasSetInitialPassword, passwordCapabilities } from './account';
import { type AuditActor } from '../../shared/audit-log';
import { auditPassword } from './audit';
import { consumeLink, findLiveLink, issuePasswordLink, type LinkPurpose, releaseLink } from './links';
import { brokenRules, ruleText } from './rules';

/** Issues a link of `purpose` and mails it. @throws when the database, directory or SMTP fails. */
export async function mailPasswordLink(deps: Deps, user: PortalUser, purpose: LinkPurpose): Promise<void> {
  const ttl = purpose === 'RESET' ? deps.cfg.RESET_LINK_TTL_MINUTES * 60 : deps.cfg.INITIAL_LINK_TTL_HOURS * 3600;
  const { hash, expiresAt } = await issuePasswordLink(deps.prisma, user.id, purpose, ttl);
  await sendPasswordLinkMail(deps.cfg, user, purpose, hash, expiresAt);
}

/** Forgot Password: mails a reset link when the address belongs to an active user whose password the portal manages. */
export async function requestReset(deps: Deps, emailAddress: string, log: FastifyBaseLogger): Promise<void> {
  try {
    const user = await deps.prisma.portalUser.findFirst({
      where: { email: { equals: emailAddress, mode: 'insensitive' }, inactive: false },
    });
    if (!user || !(await passwordCapabilities(deps, user)).ever) return;
    await mailPasswordLink(deps, user, 'RESET');
  } catch (err) {
    log.error({ err }, 'forgot password: the reset mail could not be sent');
  }
}

const badLink = (purpose: LinkPurpose): HttpError =>
  new HttpError(422, {
    fieldErrors: {},
    globalErrors: [],
    failureDescription: purpose === 'RESET' ? AUTH_MESSAGES.badResetLink : AUTH_MESSAGES.badSetLink,
  });

/** GET /rest/public/{mode}/{hash}: whether the link can still be used. */
export async function isLinkLive(deps: Deps, hash: string, purpose: LinkPurpose): Promise<boolean> {
  return !!(await findLiveLink(deps.prisma, hash, purpose));
}

/**
 * Sets a password through a link: the rules (and, for a reset, the history) are checked before the link is
 * used up; the directory write is an administrator's, without must-change (the person chose it), and every
 * session of the user ends.
 * @throws HttpError 422 (fieldErrors.password, or failureDescription for a bad link), 503 (directory down).
 */
export async function setViaLink(deps: Deps, purpose: LinkPurpose, body: PasswordSetBody): Promise<void> {
  const link = await findLiveLink(deps.prisma, body.hash, purpose);
  if (!link) throw badLink(purpose);
  const { user } = link;
  try {
    const caps = await passwordCapabilities(deps, user);
    const { policy } = caps;
    if (!caps.person) throw badLink(purpose);
    const broken = brokenRules(policy, body.password, user.username);
    if (
      !broken.length &&
      policy.inHistory > 0 &&
      (await isRecentPassword(deps.directory, caps.person.username, body.password, policy.inHistory))
    ) {
      broken.push(ruleText(policy, 'history'));
    }
    if (broken.length) throw new HttpError(422, { fieldErrors: { password: broken }, globalErrors: [] });
    if (!(await consumeLink(deps.prisma, link.id))) throw badLink(purpose);
    try {
      await adminSetPassword(deps.directory, caps.person.username, body.password, { mustChange: false });
    } catch (err) {
      await releaseLink(deps.prisma, link.id);
      throw err;
    }
    await invalidateUserSessions(deps.prisma, user.id);
    // A password set through a link ends every single sign-on grant too (issue 22).
    await revokeSsoAccess(deps.prisma, user.id, null);
    const action = purpose === 'RESET' ? 'PASSWORD_RESET' : 'PASSWORD_SET_INITIAL';
    await auditPassword(deps, { userId: user.id, username: user.username }, user.id, action);
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw unavailable(AUTH_MESSAGES.resetFailed);
  }
}

export type ResendOutcome = 'sent' | 'notPermitted' | 'alreadySet';

/** Resends the set-initial-password mail (000 §5: not to a user who may not change their password). */
export async function resendInitial(deps: Deps, actor: AuditActor, user: PortalUser): Promise<ResendOutcome> {
  if (!(await passwordCapabilities(deps, user)).ever) return 'notPermitted';
  if (await hasSetInitialPassword(deps, user)) return 'alreadySet';
  await mailPasswordLink(deps, user, 'SET_INITIAL');
  await auditPassword(deps, actor, user.id, 'INITIAL_PASSWORD_EMAIL_SENT', { to: user.email });
  return 'sent';
}

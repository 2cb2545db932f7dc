/**
 * Mail of the password lifecycle (shared/mail.ts): the reset link after
 * Forgot Password and the set-initial-password link (000 §7 forgot_password, set_initial_password/resend).
 */
import type { ApiConfig } from '../../config';
import { sendApiMail } from '../../shared/mail';
import type { LinkPurpose } from './links';

/** The browser route of a link (000 §2: 'route shape not shown'; docs/decisions.md). */
export function passwordLinkUrl(cfg: ApiConfig, purpose: LinkPurpose, hash: string): string {
  const route = purpose === 'SET_INITIAL' ? 'set-initial-password' : 'reset-password';
  return `${cfg.PORTAL_URL.replace(/\/+$/, '')}/${route}/${hash}`;
}

/** Subjects of the two mails (tests look for them). */
export const LINK_MAIL_SUBJECTS: Record<LinkPurpose, string> = {
  SET_INITIAL: 'Portal Gateway: set your password',
  RESET: 'Portal Gateway: reset your password',
};

/** Sends a set-initial or reset link to a user. @throws when the SMTP server refuses or cannot be reached. */
export async function sendPasswordLinkMail(
  cfg: ApiConfig,
  to: { email: string; firstName: string; lastName: string; username: string },
  purpose: LinkPurpose,
  hash: string,
  expiresAt: Date,
): Promise<void> {
  const url = passwordLinkUrl(cfg, purpose, hash);
  const intro =
    purpose === 'SET_INITIAL'
      ? 'An account was created for you on the Portal Gateway. Set your password with this link:'
      : 'We received a request to reset the password of your Portal Gateway account. Choose a new one with this link:';
  await sendApiMail(cfg, {
    to: to.email,
    subject: LINK_MAIL_SUBJECTS[purpose],
    lines: [
      `Dear ${to.firstName} ${to.lastName},`,
      '',
      intro,
      url,
      '',
      `Your username is ${to.username}. The link works once and expires on ${expiresAt.toUTCString()}.`,
      purpose === 'RESET' ? 'If you did not ask for this, ignore this mail: your password stays as it is.' : '',
      `Questions? Contact User Support at ${cfg.SUPPORT_EMAIL}.`,
      '',
      'Portal Gateway User Support',
    ],
  });
}

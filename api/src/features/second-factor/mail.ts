/**
 * The second factors' mails to the person (shared/mail.ts): the link that confirms a first factor, and the
 * notice of every factor added, removed or reset, so a person learns at once of a change they did not make.
 * Never a secret or a code.
 */
import { SECOND_FACTOR_TEXTS as T } from '@portal/contract';
import type { Deps } from '../../deps';
import { sendApiMail } from '../../shared/mail';

type Person = { email: string; firstName: string; lastName: string; username: string };

/** The browser route the confirmation link opens (a secure page: the person signs in first if need be). */
export const confirmationLinkUrl = (deps: Deps, token: string): string =>
  `${deps.cfg.PORTAL_URL.replace(/\/+$/, '')}/app/confirm-sign-in-method/${token}`;

const signature = (deps: Deps) => [
  '',
  `Questions? Contact User Support at ${deps.cfg.SUPPORT_EMAIL}.`,
  '',
  'Portal Gateway User Support',
];

/** Mails the link that confirms the person's first factor. @throws when the SMTP server fails. */
export async function mailConfirmationLink(deps: Deps, to: Person, token: string, expiresAt: Date): Promise<void> {
  await sendApiMail(deps.cfg, {
    to: to.email,
    subject: T.mailSubjectConfirm,
    lines: [
      `Dear ${to.firstName} ${to.lastName},`,
      '',
      `An authenticator app is being added as a sign-in method of your account ${to.username}. Confirm it with this link:`,
      confirmationLinkUrl(deps, token),
      '',
      `The link works once and expires on ${expiresAt.toUTCString()}.`,
      'If you did not do this, do not follow the link, and change your password: someone else knows it.',
      ...signature(deps),
    ],
  });
}

const NOTICES = {
  added: {
    subject: T.mailSubjectAdded,
    what: (label: string) => `The authenticator app "${label}" was added as a sign-in method of your account`,
  },
  removed: {
    subject: T.mailSubjectRemoved,
    what: (label: string) => `The authenticator app "${label}" was removed from the sign-in methods of your account`,
  },
  reset: {
    subject: T.mailSubjectReset,
    what: () => 'An administrator removed every second sign-in method of your account',
  },
} as const;

/**
 * Tells the person a factor was added, removed or reset. Best effort: the change is made and audited
 * already, so a mail server that fails is logged, never the change's failure.
 */
export async function mailFactorNotice(
  deps: Deps,
  to: Person,
  notice: keyof typeof NOTICES,
  label = '',
): Promise<void> {
  const n = NOTICES[notice];
  try {
    await sendApiMail(deps.cfg, {
      to: to.email,
      subject: n.subject,
      lines: [
        `Dear ${to.firstName} ${to.lastName},`,
        '',
        `${n.what(label)} ${to.username} on ${new Date().toUTCString()}.`,
        'If you did not do this, change your password and contact User Support at once.',
        ...signature(deps),
      ],
    });
  } catch (err) {
    console.warn(`second factor: the '${notice}' notice to ${to.username} not sent: ${(err as Error).message}`);
  }
}

/**
 * The worker's SMTP transport. Connect, greeting and socket timeouts sit well under the mail activity's
 * 60-second start-to-close timeout (REQUEST-LIFECYCLE rule 5), so a hanging server fails the attempt in
 * time for the retry instead of overlapping it.
 */
import nodemailer, { type Transporter } from 'nodemailer';

export interface MailSettings {
  smtpUrl: string;
  from: string;
  portalUrl: string;
  /** The server key the links in outbox mails derive from (MAIL_LINK_KEY; outbox `rowSecret`). */
  linkKey: string;
}

/** Milliseconds. The outbox's lease (./outbox.ts) is longer than their sum. */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 } as const;

export function createTransport(settings: MailSettings): Transporter {
  return nodemailer.createTransport({ url: settings.smtpUrl, ...SMTP_TIMEOUTS });
}

/** The domain of the sender's address, for Message-IDs. */
export const senderDomain = (from: string): string => from.split('@')[1]?.replace(/[>\s]/g, '') || 'portal.invalid';
